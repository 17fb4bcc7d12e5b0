/* pam_localauthd.h: what the module's files share. */
#ifndef PAM_LOCALAUTHD_H
#define PAM_LOCALAUTHD_H

#include <security/pam_modules.h>
#include <stddef.h>

#define REASON_MAX 256
#define NAME_MAX_LEN 128
#define REQUEST_ID_MAX 64

/* The module's arguments (see docs/pam.md). */
struct module_options {
        const char *socket_path;            /* socket=PATH */
        char policy[64];                    /* policy=NAME */
        char reason[REASON_MAX];            /* reason=TEXT, or the default naming the service and the user */
        int timeout_ms;                     /* timeout=SECONDS, 1..300 */
        int allow_remote;                   /* allow_remote */
        int no_terminal;                    /* no_tty: always use the conversation */
        char daemon_user[NAME_MAX_LEN];     /* daemon_user=NAME: the account localauthd runs as */
};

/* How one evaluation ended, in the module's words. */
enum evaluation_end {
        END_SUCCESS,
        END_FAILED,        /* authenticationFailed: attempts exhausted */
        END_LOCKOUT,       /* biometryLockout */
        END_FALLBACK,      /* userFallback, or Enter alone */
        END_CANCEL,        /* userCancel, or Esc / Ctrl-C */
        END_PASSWORD,      /* the person typed the password first */
        END_UNAVAILABLE,   /* nothing to evaluate with, not interactive, a broken answer */
        END_TIMEOUT,       /* timeout= passed */
};

/* The outcome of an evaluation: how it ended, the daemon's error name and the requestID (both
 * sanitized), and the typed password (only with END_PASSWORD). */
struct evaluation_result {
        enum evaluation_end end;
        char error_name[NAME_MAX_LEN];
        char request_id[REQUEST_ID_MAX];
        char password[512];
};

struct daemon_link;
struct terminal;

/* Runs one evaluation of options->policy for `user` over the open link, talking to the person through
 * the terminal (when terminal->fd >= 0) or the PAM conversation; bounded by options->timeout_ms. */
void evaluate(pam_handle_t *pamh, struct daemon_link *link, struct terminal *terminal,
              const struct module_options *options, const char *user, struct evaluation_result *result);

/* Copies text into out (size > 0) keeping printable ASCII and replacing everything else with '?'. */
void sanitize(const char *text, char *out, size_t size);

/* Writes text as JSON string content (quotes excluded) into out, escaped; returns -1 if it does not fit. */
int json_escape(const char *text, char *out, size_t size);

#endif
