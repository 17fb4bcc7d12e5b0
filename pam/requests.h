/* requests.h: the module's side of the protocol: the requests it sends for one evaluation and what it
 * reads out of the daemon's answers (docs/protocol.md). */
#ifndef PAM_LOCALAUTHD_REQUESTS_H
#define PAM_LOCALAUTHD_REQUESTS_H

#include "daemon_link.h"
#include "json_reader.h"
#include "pam_localauthd.h"

/* The JSON-RPC ids of the module's requests. */
enum { HELLO_ID = 1, CAN_EVALUATE_ID = 2, EVALUATE_ID = 3, CANCEL_ID = 4 };

/* Sends session.hello, context.canEvaluatePolicy and context.evaluatePolicy for `user` in one write,
 * each naming the requester (the real uid of the PAM caller: who ran sudo or su). Returns 0 or -1. */
int requests_start(pam_handle_t *pamh, struct daemon_link *link, const struct module_options *options,
                   const char *user);

/* Sends evaluation.cancel for the evaluation unless *answered says its answer came; sets *answered. */
void requests_cancel(struct daemon_link *link, int *answered);

/* Keeps the object's requestID in the result (letters, digits and dashes only). */
void answer_request_id(const struct json_document *doc, int object, struct evaluation_result *result);

/* Reads an error (a JSON-RPC error's data, or canEvaluatePolicy's error object) into the result: its
 * name, reason, requestID and how the evaluation ended in the module's words. */
void answer_error(const struct json_document *doc, int object, struct evaluation_result *result);

#endif
