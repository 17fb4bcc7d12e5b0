/* pam_localauthd.c: the PAM entry points. `auth sufficient pam_localauthd.so` asks localauthd for
 * PAM_USER's presence before the password; it steps aside at once when it cannot help (daemon down, the
 * caller not in an active local session, nothing to evaluate with) and never blocks past timeout=.
 * See docs/pam.md and pam_localauthd(8). */
#include "daemon_link.h"
#include "kept_password.h"
#include "pam_localauthd.h"
#include "terminal.h"

#include <errno.h>
#include <security/pam_ext.h>
#include <security/pam_modules.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#define DEFAULT_SOCKET "/run/localauthd/localauthd.sock"

static int parse_options(pam_handle_t *pamh, int argc, const char **argv, struct module_options *options) {
        *options = (struct module_options){.socket_path = DEFAULT_SOCKET, .timeout_ms = 15000, .session_check = 1};
        snprintf(options->policy, sizeof options->policy, "deviceOwnerAuthenticationWithBiometrics");
        snprintf(options->daemon_user, sizeof options->daemon_user, "localauthd");
        for (int i = 0; i < argc; i++) {
                const char *arg = argv[i];
                if (strncmp(arg, "socket=", 7) == 0 && arg[7] == '/') {
                        options->socket_path = arg + 7;
                } else if (strncmp(arg, "policy=", 7) == 0 && strlen(arg + 7) < sizeof options->policy &&
                           arg[7] != '\0' &&
                           strspn(arg + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == strlen(arg + 7)) {
                        snprintf(options->policy, sizeof options->policy, "%s", arg + 7);
                } else if (strncmp(arg, "reason=", 7) == 0 && arg[7] != '\0') {
                        sanitize(arg + 7, options->reason, sizeof options->reason);
                } else if (strncmp(arg, "timeout=", 8) == 0) {
                        char *end = NULL;
                        long seconds = strtol(arg + 8, &end, 10);
                        if (!end || *end != '\0' || seconds < 1 || seconds > 300) {
                                pam_syslog(pamh, LOG_ERR, "timeout= must be 1..300 seconds");
                                return -1;
                        }
                        options->timeout_ms = (int)seconds * 1000;
                } else if (strcmp(arg, "allow_remote") == 0) {
                        options->allow_remote = 1;
                } else if (strcmp(arg, "session_check=no") == 0 || strcmp(arg, "session_check=yes") == 0) {
                        /* Only for hosts without logind (containers, the pam_wrapper tests): see SECURITY in
                         * pam_localauthd(8). */
                        options->session_check = arg[14] == 'y';
                } else if (strcmp(arg, "login") == 0) {
                        options->login = 1;
                } else if (strcmp(arg, "keep_password") == 0) {
                        options->keep_password = 1;
                } else if (strcmp(arg, "release_password") == 0) {
                        options->release_password = 1;
                } else if (strcmp(arg, "no_tty") == 0) {
                        options->no_terminal = 1;
                } else if (strncmp(arg, "daemon_user=", 12) == 0 && strlen(arg + 12) < sizeof options->daemon_user) {
                        snprintf(options->daemon_user, sizeof options->daemon_user, "%s", arg + 12);
                } else {
                        pam_syslog(pamh, LOG_ERR, "unknown or malformed option: %s", arg);
                        return -1;
                }
        }
        return 0;
}

/* The default reason names the service and the user, e.g. "sudo wants to act as root for alice". */
static void default_reason(const char *service, const char *user, struct module_options *options) {
        char s[NAME_MAX_LEN], u[NAME_MAX_LEN];
        sanitize(service, s, sizeof s);
        sanitize(user, u, sizeof u);
        if (strcmp(s, "sudo") == 0 || strcmp(s, "sudo-i") == 0)
                snprintf(options->reason, sizeof options->reason, "sudo wants to act as root for %s", u);
        else if (strcmp(s, "su") == 0 || strcmp(s, "su-l") == 0)
                snprintf(options->reason, sizeof options->reason, "su wants to switch to %s",
                         u); /* PAM_USER: the target */
        else if (strcmp(s, "polkit-1") == 0)
                snprintf(options->reason, sizeof options->reason, "polkit wants to authorize an action for %s", u);
        else if (strcmp(s, "login") == 0)
                snprintf(options->reason, sizeof options->reason, "login wants to sign in %s", u);
        else
                snprintf(options->reason, sizeof options->reason, "%s wants to authenticate %s", s, u);
}

static const char *end_name(enum evaluation_end end) {
        static const char *const names[] = {"success",  "failed",      "lockout", "fallback",     "cancel",
                                            "password", "unavailable", "timeout", "stepped aside"};
        return names[end];
}

static int pam_code(enum evaluation_end end) {
        switch (end) {
        case END_SUCCESS: return PAM_SUCCESS;
        case END_FAILED: return PAM_AUTH_ERR;
        case END_LOCKOUT: return PAM_MAXTRIES;
        case END_CANCEL: return PAM_AUTH_ERR;
        case END_FALLBACK:
        case END_PASSWORD:
        case END_ASIDE: return PAM_IGNORE;
        case END_UNAVAILABLE:
        case END_TIMEOUT: return PAM_AUTHINFO_UNAVAIL;
        }
        return PAM_AUTHINFO_UNAVAIL;
}

/* Why the module stepped aside before the daemon evaluated anything: its journal entry's words. */
struct aside {
        const char *reason; /* LA_ERROR */
        const char *why;    /* the sentence after it */
};

/* Whether an account name is plain ASCII (printable, no space), the only names the daemon judges. */
static int plain_user(const char *user) {
        for (const char *p = user; *p; p++)
                if ((unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
                        return 0;
        return 1;
}

/* Opens the terminal, or checks that the conversation can carry the prompt; 0, or -1 when neither can. */
static int open_person(pam_handle_t *pamh, const struct module_options *options, struct terminal *terminal) {
        const struct pam_conv *conversation = NULL;
        if (!options->no_terminal)
                (void)terminal_open(terminal);
        if (terminal->fd >= 0)
                return 0;
        if (pam_get_item(pamh, PAM_CONV, (const void **)&conversation) != PAM_SUCCESS || !conversation ||
            !conversation->conv)
                return -1;
        return 0;
}

/* Connects to the daemon; NULL (with the aside's words) when it is missing or not the daemon. */
static struct daemon_link *open_daemon(const struct module_options *options, struct aside *aside) {
        struct daemon_link *link = calloc(1, sizeof *link);
        int r = link ? daemon_link_open(link, options->socket_path, options->daemon_user) : -ENOMEM;
        if (r == 0)
                return link;
        free(link);
        *aside = r == -EPERM
                         ? (struct aside){"socket not served by localauthd",
                                          "the socket's peer is neither root nor the daemon's account"}
                         : (struct aside){"daemon not reachable", "localauthd is not running: the password decides"};
        return NULL;
}

/* One PAM evaluation. Every path after the options and the user are read ends at `finish`, which
 * closes the link and the terminal, wipes the typed password and writes the one journal entry. */
static int authenticate(pam_handle_t *pamh, int argc, const char **argv) {
        struct module_options options;
        struct evaluation_result result = {.end = END_UNAVAILABLE, .started_us = monotonic_us()};
        struct terminal terminal = {.fd = -1};
        struct daemon_link *link = NULL;
        struct aside aside = {0};
        const char *user = NULL, *service = NULL;
        int code = PAM_IGNORE; /* a bad line never locks anyone out */
        char detail[160];

        if (parse_options(pamh, argc, argv, &options) != 0)
                goto finish;
        if (options.keep_password)
                /* A line of its own after pam_unix: it keeps, it never evaluates. */
                return keep_password(pamh, &options);
        if (pam_get_user(pamh, &user, NULL) != PAM_SUCCESS || !user || !*user || strlen(user) >= NAME_MAX_LEN) {
                user = NULL; /* nothing to journal about */
                code = PAM_USER_UNKNOWN;
                goto finish;
        }
        if (!plain_user(user)) {
                /* Account names are plain ASCII here; anything else is not the daemon's to judge. */
                aside = (struct aside){"user name not plain ASCII", ""};
                code = PAM_AUTHINFO_UNAVAIL;
                goto finish;
        }
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        if (!options.reason[0])
                default_reason(service ? service : "?", user, &options);
        aside.reason = local_session_refusal(pamh, &options, detail, sizeof detail);
        if (aside.reason) {
                aside.why = detail;
                code = PAM_IGNORE;
                goto finish;
        }
        result.times.session_us = monotonic_us() - result.started_us;
        if (open_person(pamh, &options, &terminal) != 0) {
                aside = (struct aside){"no terminal and no conversation", ""};
                code = PAM_AUTHINFO_UNAVAIL;
                goto finish;
        }
        link = open_daemon(&options, &aside);
        if (!link) {
                code = PAM_AUTHINFO_UNAVAIL;
                goto finish;
        }
        result.times.connect_us = monotonic_us() - result.started_us;
        evaluate(pamh, link, &terminal, &options, user, &result);
        code = pam_code(result.end);
        if (result.end == END_SUCCESS && options.release_password &&
            release_password(pamh, link, result.request_id, options.timeout_ms))
                pam_syslog(pamh, LOG_NOTICE, "login password kept by localauthd set as PAM_AUTHTOK (%s)",
                           result.request_id);
        if (result.end == END_PASSWORD && pam_set_item(pamh, PAM_AUTHTOK, result.password) != PAM_SUCCESS)
                code = PAM_AUTHINFO_UNAVAIL;

finish:
        if (link) {
                daemon_link_close(link);
                free(link);
        }
        terminal_close(&terminal);
        explicit_bzero(result.password, sizeof result.password);
        if (user && aside.reason)
                journal_outcome(pamh, &(struct outcome_note){.user = user,
                                                             .outcome = "stepped aside",
                                                             .la_error = aside.reason,
                                                             .why = aside.why,
                                                             .code = code,
                                                             .session_check = options.session_check});
        else if (user)
                journal_outcome(pamh,
                                &(struct outcome_note){.user = user,
                                                       .outcome = end_name(result.end),
                                                       .la_error = result.end == END_SUCCESS ? "" : result.error_name,
                                                       .result = &result,
                                                       .code = code,
                                                       .session_check = options.session_check});
        return code;
}

PAM_EXTERN __attribute__((visibility("default"))) int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
                                                                          const char **argv) {
        /* PAM_SILENT (sudo passes it by default, pam_silent) hides informational messages; the prompt
         * is not one, so the module still asks. */
        (void)flags;
        return authenticate(pamh, argc, argv);
}

PAM_EXTERN __attribute__((visibility("default"))) int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc,
                                                                     const char **argv) {
        (void)pamh;
        (void)flags;
        (void)argc;
        (void)argv;
        return PAM_IGNORE;
}

/* The password stack's keep_password line (after pam_unix): once the password changed, the kept one is
 * dropped, so the old password is never given back. */
PAM_EXTERN __attribute__((visibility("default"))) int pam_sm_chauthtok(pam_handle_t *pamh, int flags, int argc,
                                                                       const char **argv) {
        struct module_options options;
        if ((flags & PAM_PRELIM_CHECK) || parse_options(pamh, argc, argv, &options) != 0 || !options.keep_password)
                return PAM_IGNORE;
        return drop_password(pamh, &options);
}
