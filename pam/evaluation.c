/* evaluation.c: one context.evaluatePolicy for PAM_USER: the requests go out in one write
 * (requests.c), then the module polls the daemon's socket and the terminal together until the daemon,
 * the person or the deadline ends it; what the person sees and types is prompt.c's.
 *
 * Nothing is shown until the daemon has said it can evaluate with a biometric sensor: when it cannot,
 * the module steps aside saying nothing (or one line for a lockout), and the next module's prompt is
 * the only one. The finger (or face) prompt is shown only once this evaluation owns the sensor and the
 * driver listens (evaluation.armed, or a first feedback, which only a listening sensor gives): a touch
 * at the prompt is never lost, and never answers another requester's evaluation. Before that, one line
 * says the module waits when the evaluation is queued. A match ends it with success, a typed password
 * (Enter) ends it and goes to the next module as PAM_AUTHTOK, Enter alone is the fallback, Esc or
 * Ctrl-C is a cancel. When the sensor gives up after the prompt was shown, the prompt stays and the
 * password typed there goes on as PAM_AUTHTOK, so that sudo does not ask a second time. Without a
 * terminal, the prompt goes through the conversation and the module waits for the daemon only. Every
 * wait is bounded. */
#include "daemon_link.h"
#include "json_reader.h"
#include "pam_localauthd.h"
#include "prompt.h"
#include "requests.h"
#include "terminal.h"

#include <errno.h>
#include <poll.h>
#include <security/pam_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How long the daemon may take to say whether it can evaluate before the module steps aside. */
enum { ANSWER_WAIT_MS = 1000 };

/* What one evaluation reads into: the current line and its parse (heap, bounded, one per call). */
struct workspace {
        struct json_document doc;
        char line[DAEMON_LINE_MAX];
        int can_evaluate;        /* the daemon said it can evaluate: the prompt may be shown */
        int evaluation_answered; /* context.evaluatePolicy's answer came: nothing to cancel */
        struct prompt_lines lines;
};

/* context.canEvaluatePolicy's answer; returns 1 when it ended the evaluation (the daemon cannot help). */
static int handle_can_evaluate(pam_handle_t *pamh, struct workspace *work, struct evaluation_result *result) {
        const struct json_document *doc = &work->doc;
        int answer = json_member(doc, 0, "result");
        result->times.answer_us = monotonic_us() - result->started_us;
        if (answer < 0 || doc->tokens[answer].type != JSON_OBJECT) {
                answer_error(doc, json_member(doc, json_member(doc, 0, "error"), "data"), result);
                return 1;
        }
        (void)json_string(doc, json_member(doc, answer, "biometryType"), result->biometry, sizeof result->biometry);
        if (!json_is_true(doc, json_member(doc, answer, "canEvaluate"))) {
                answer_error(doc, json_member(doc, answer, "error"), result);
                if (result->end == END_LOCKOUT)
                        pam_info(pamh, "%s", "Biometry is locked out; use the password.");
                return 1;
        }
        if (!prompt_sensor_action(result->biometry)) {
                /* Nothing the person could be asked to use: say nothing, the password comes next. */
                snprintf(result->error_name, sizeof result->error_name, "biometryNotAvailable");
                result->end = END_UNAVAILABLE;
                return 1;
        }
        work->can_evaluate = 1;
        return 0;
}

/* The sensor listens for this evaluation (evaluation.armed, or a first feedback): the prompt, once the
 * daemon has said it can evaluate. */
static void armed(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                  const struct workspace *work, struct evaluation_result *result) {
        if (work->can_evaluate)
                prompt_armed(pamh, terminal, options, &work->lines, result);
}

/* Handles one line from the daemon; returns 1 when it ended the evaluation. */
static int handle_line(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                       struct workspace *work, size_t length, struct evaluation_result *result) {
        struct json_document *const doc = &work->doc;
        char method[64];
        long id = 0;
        if (json_parse(doc, work->line, length) != 0 || doc->tokens[0].type != JSON_OBJECT)
                return 0; /* not something the module understands: ignored, the deadline still holds */
        int method_token = json_member(doc, 0, "method");
        if (method_token >= 0) {
                int params = json_member(doc, 0, "params");
                if (json_string(doc, method_token, method, sizeof method) != 0)
                        return 0;
                if (strcmp(method, "evaluation.started") == 0) {
                        answer_request_id(doc, params, result);
                } else if (strcmp(method, "evaluation.armed") == 0) {
                        armed(pamh, terminal, options, work, result);
                } else if (strcmp(method, "evaluation.queued") == 0 && work->can_evaluate) {
                        prompt_waiting(pamh, terminal, &work->lines, result);
                } else if (strcmp(method, "evaluation.feedback") == 0) {
                        armed(pamh, terminal, options, work, result);
                        if (result->prompted)
                                prompt_feedback(pamh, terminal, doc, params);
                }
                return 0;
        }
        if (json_integer(doc, json_member(doc, 0, "id"), &id) != 0)
                return 0;
        if (id == CAN_EVALUATE_ID && !work->can_evaluate)
                return handle_can_evaluate(pamh, work, result);
        if (id != EVALUATE_ID)
                return 0;
        work->evaluation_answered = 1;
        result->times.result_us = monotonic_us() - result->started_us;
        int answer = json_member(doc, 0, "result");
        if (answer >= 0 && doc->tokens[answer].type == JSON_OBJECT) {
                answer_request_id(doc, answer, result);
                result->end = END_SUCCESS;
                return 1;
        }
        answer_error(doc, json_member(doc, json_member(doc, 0, "error"), "data"), result);
        return 1;
}

void evaluate(pam_handle_t *pamh, struct daemon_link *link, struct terminal *terminal,
              const struct module_options *options, const char *user, struct evaluation_result *result) {
        size_t typed = 0;
        long long deadline = monotonic_ms() + options->timeout_ms;
        long long answer_deadline = monotonic_ms() + ANSWER_WAIT_MS;
        result->end = END_UNAVAILABLE;
        struct workspace *work = calloc(1, sizeof *work);
        if (!work)
                return;
        if (requests_start(pamh, link, options, user) != 0) {
                snprintf(result->error_name, sizeof result->error_name, "connectionLost");
                free(work);
                return;
        }
        for (;;) {
                long long left = deadline - monotonic_ms();
                if (left <= 0) {
                        result->end = END_TIMEOUT;
                        snprintf(result->error_name, sizeof result->error_name, "timeout");
                        break;
                }
                if (!work->can_evaluate) {
                        /* A daemon that accepts but never answers (stopped, wedged) is as good as down. */
                        long long answer_left = answer_deadline - monotonic_ms();
                        if (answer_left <= 0) {
                                result->end = END_UNAVAILABLE;
                                snprintf(result->error_name, sizeof result->error_name, "daemonNotAnswering");
                                break;
                        }
                        if (answer_left < left)
                                left = answer_left;
                }
                struct pollfd fds[2] = {{.fd = link->fd, .events = POLLIN}, {.fd = terminal->fd, .events = POLLIN}};
                int r = poll(fds, terminal->fd >= 0 ? 2 : 1, (int)left);
                if (r < 0 && !errno_is_retry())
                        break;
                if (r <= 0)
                        continue;
                if (fds[0].revents) {
                        int closed = daemon_link_fill(link);
                        long length;
                        while ((length = daemon_link_next_line(link, work->line)) >= 0) {
                                int ended = handle_line(pamh, terminal, options, work, (size_t)length, result);
                                if (ended)
                                        goto done;
                        }
                        if (closed != 0) {
                                snprintf(result->error_name, sizeof result->error_name, "connectionLost");
                                result->end = END_UNAVAILABLE;
                                goto done;
                        }
                }
                if (terminal->fd >= 0 && fds[1].revents && prompt_keys(terminal, result, &typed))
                        break;
        }
done:
        /* The person, the deadline or the daemon's "cannot" decided: the daemon ends the evaluation too. */
        requests_cancel(link, &work->evaluation_answered);
        if (terminal->fd >= 0 && result->prompted && prompt_sensor_gave_up(result->end))
                prompt_password_after(pamh, terminal, result, &typed);
        if (terminal->fd >= 0 && result->prompted)
                terminal_write(terminal, "\n");
        explicit_bzero(work, sizeof *work);
        free(work);
}
