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
        const char *socket_path;        /* socket=PATH */
        char policy[64];                /* policy=NAME */
        char reason[REASON_MAX];        /* reason=TEXT, or the default naming the service and the user */
        int timeout_ms;                 /* timeout=SECONDS, 1..300 */
        int allow_remote;               /* allow_remote */
        int session_check;              /* session_check=no turns logind's check off (containers, tests) */
        int no_terminal;                /* no_tty: always use the conversation */
        char daemon_user[NAME_MAX_LEN]; /* daemon_user=NAME: the account localauthd runs as */
        int login;                      /* login: a login before its session (login_locality.c) */
        int keep_password;              /* keep_password: hand pam_unix's PAM_AUTHTOK to the daemon (kept_password.c) */
        int release_password;           /* release_password: after a success, the kept password as PAM_AUTHTOK */
};

/* How one evaluation ended, in the module's words. */
enum evaluation_end {
        END_SUCCESS,
        END_FAILED,      /* authenticationFailed: attempts exhausted */
        END_LOCKOUT,     /* biometryLockout */
        END_FALLBACK,    /* userFallback, or Enter alone */
        END_CANCEL,      /* userCancel, or Esc / Ctrl-C */
        END_PASSWORD,    /* the person typed the password first */
        END_UNAVAILABLE, /* nothing to evaluate with, not interactive, a broken answer */
        END_TIMEOUT,     /* timeout= passed */
        END_ASIDE,       /* the daemon does not serve PAM in its configuration (Owners=device) */
};

/* When each of the module's steps ended, in microseconds since it was called (0: not reached). */
struct step_times {
        long long session_us; /* the local-session check */
        long long connect_us; /* connected to the daemon */
        long long answer_us;  /* the daemon said whether it can evaluate */
        long long prompt_us;  /* the prompt shown */
        long long result_us;  /* the evaluation's answer, or the person's key */
};

/* The outcome of an evaluation: how it ended, the daemon's error name and reason and the requestID (all
 * sanitized), the sensor's kind, whether the prompt was shown, how the sensor ended when the person
 * then typed the password in the module's prompt (gave_up), and the typed password (only with
 * END_PASSWORD). */
struct evaluation_result {
        enum evaluation_end end;
        enum evaluation_end gave_up; /* END_SUCCESS when the sensor did not give up first */
        int prompted;
        char error_name[NAME_MAX_LEN];
        char error_reason[NAME_MAX_LEN];
        char request_id[REQUEST_ID_MAX];
        char biometry[16]; /* the daemon's biometryType: faceID, touchID, opticID, none */
        struct step_times times;
        long long started_us;
        char password[512];
};

struct daemon_link;
struct terminal;

/* Runs one evaluation of options->policy for `user` over the open link, talking to the person through
 * the terminal (when terminal->fd >= 0) or the PAM conversation; bounded by options->timeout_ms. */
void evaluate(pam_handle_t *pamh, struct daemon_link *link, struct terminal *terminal,
              const struct module_options *options, const char *user, struct evaluation_result *result);

/* Why the PAM caller is not in an active local user session (noSession, remoteSession,
 * inactiveSession, sessionClass), with a sentence in detail; NULL when it is. */
const char *local_session_refusal(pam_handle_t *pamh, const struct module_options *options, char *detail, size_t size);

/* Why a login before its session exists is not a person at this machine (remoteTerminal,
 * notControllingTerminal, inactiveTerminal, noGreeter, remoteSession, noSeat), with a sentence in
 * detail; NULL when PAM_TTY is the virtual terminal on screen and the caller's own, or the seat's
 * active session is a local greeter. */
const char *login_refusal(pam_handle_t *pamh, char *detail, size_t size);

/* The number N of a virtual terminal's name ("ttyN", "/dev/ttyN", 1..63); 0 for any other name. */
int virtual_terminal_number(const char *tty);

/* What the module's journal entry says about one PAM evaluation. */
struct outcome_note {
        const char *user;
        const char *outcome;                    /* PAM_OUTCOME: success, stepped aside, unavailable, ... */
        const char *la_error;                   /* LA_ERROR: the daemon's error name, or why the module stepped aside */
        const char *why;                        /* the MESSAGE's explanation; NULL: derived from result */
        const struct evaluation_result *result; /* NULL before an evaluation */
        int code;                               /* the PAM code returned */
        int session_check;
};

/* Writes the module's journal entry (SYSLOG_IDENTIFIER=pam_localauthd) for one PAM evaluation. */
void journal_outcome(pam_handle_t *pamh, const struct outcome_note *note);

/* Microseconds on the monotonic clock. */
long long monotonic_us(void);

/* Milliseconds on the monotonic clock (the module's deadlines). */
long long monotonic_ms(void);

/* Whether the last call's errno says to try again (EINTR, EAGAIN). */
int errno_is_retry(void);

/* Copies text into out (size > 0) keeping printable ASCII and replacing everything else with '?'. */
void sanitize(const char *text, char *out, size_t size);

/* Writes text as JSON string content (quotes excluded) into out, escaped; returns -1 if it does not fit. */
int json_escape(const char *text, char *out, size_t size);

#endif
