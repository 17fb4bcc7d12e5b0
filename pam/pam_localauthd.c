/* pam_localauthd.c: the PAM entry points. `auth sufficient pam_localauthd.so` asks localauthd for
 * PAM_USER's presence before the password; it steps aside at once when it cannot help (daemon down, the
 * caller not in an active local session, nothing to evaluate with) and never blocks past timeout=.
 * See docs/pam.md and pam_localauthd(8). */
#include "daemon_link.h"
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
                           arg[7] != '\0' && strspn(arg + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == strlen(arg + 7)) {
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
                snprintf(options->reason, sizeof options->reason, "su wants to switch to %s", u); /* PAM_USER: the target */
        else if (strcmp(s, "polkit-1") == 0)
                snprintf(options->reason, sizeof options->reason, "polkit wants to authorize an action for %s", u);
        else if (strcmp(s, "login") == 0)
                snprintf(options->reason, sizeof options->reason, "login wants to sign in %s", u);
        else
                snprintf(options->reason, sizeof options->reason, "%s wants to authenticate %s", s, u);
}

static const char *end_name(enum evaluation_end end) {
        static const char *const names[] = {"success", "failed", "lockout", "fallback", "cancel",
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

/* The journal entry for a module that steps aside before asking the daemon anything. */
static int step_aside(pam_handle_t *pamh, const struct module_options *options, const char *user, const char *reason,
                      const char *why, int code) {
        journal_outcome(pamh, &(struct outcome_note){.user = user, .outcome = "stepped aside", .la_error = reason,
                                                     .why = why, .code = code, .session_check = options->session_check});
        return code;
}

static int authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv) {
        struct module_options options;
        struct evaluation_result result = {.end = END_UNAVAILABLE, .started_us = monotonic_us()};
        const char *user = NULL, *service = NULL;
        if (parse_options(pamh, argc, argv, &options) != 0)
                return PAM_IGNORE; /* a bad line never locks anyone out */
        if (pam_get_user(pamh, &user, NULL) != PAM_SUCCESS || !user || !*user || strlen(user) >= NAME_MAX_LEN)
                return PAM_USER_UNKNOWN;
        for (const char *p = user; *p; p++)
                if ((unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
                        /* Account names are plain ASCII here; anything else is not the daemon's to judge. */
                        return step_aside(pamh, &options, user, "user name not plain ASCII", "", PAM_AUTHINFO_UNAVAIL);
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        if (!options.reason[0])
                default_reason(service ? service : "?", user, &options);

        char detail[160];
        const char *refusal = local_session_refusal(pamh, &options, detail, sizeof detail);
        if (refusal)
                return step_aside(pamh, &options, user, refusal, detail, PAM_IGNORE);
        result.times.session_us = monotonic_us() - result.started_us;
        const struct pam_conv *conversation = NULL;
        struct terminal terminal = {.fd = -1};
        /* PAM_SILENT (sudo passes it by default, pam_silent) hides informational messages; the prompt
         * is not one, so the module still asks. */
        (void)flags;
        if (!options.no_terminal)
                (void)terminal_open(&terminal);
        if (terminal.fd < 0 &&
            (pam_get_item(pamh, PAM_CONV, (const void **)&conversation) != PAM_SUCCESS || !conversation ||
             !conversation->conv))
                return step_aside(pamh, &options, user, "no terminal and no conversation", "", PAM_AUTHINFO_UNAVAIL);

        struct daemon_link *link = calloc(1, sizeof *link);
        int r = link ? daemon_link_open(link, options.socket_path, options.daemon_user) : -ENOMEM;
        if (r < 0) {
                free(link);
                terminal_close(&terminal);
                return step_aside(pamh, &options, user,
                                  r == -EPERM ? "socket not served by localauthd" : "daemon not reachable",
                                  r == -EPERM ? "the socket's peer is neither root nor the daemon's account"
                                              : "localauthd is not running: the password decides",
                                  PAM_AUTHINFO_UNAVAIL);
        }
        result.times.connect_us = monotonic_us() - result.started_us;
        evaluate(pamh, link, &terminal, &options, user, &result);
        daemon_link_close(link);
        free(link);
        terminal_close(&terminal);

        int code = pam_code(result.end);
        if (result.end == END_PASSWORD && pam_set_item(pamh, PAM_AUTHTOK, result.password) != PAM_SUCCESS)
                code = PAM_AUTHINFO_UNAVAIL;
        explicit_bzero(result.password, sizeof result.password);
        journal_outcome(pamh, &(struct outcome_note){.user = user, .outcome = end_name(result.end),
                                                     .la_error = result.end == END_SUCCESS ? "" : result.error_name,
                                                     .result = &result, .code = code,
                                                     .session_check = options.session_check});
        return code;
}

PAM_EXTERN __attribute__((visibility("default"))) int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
                                                                          const char **argv) {
        return authenticate(pamh, flags, argc, argv);
}

PAM_EXTERN __attribute__((visibility("default"))) int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc,
                                                                     const char **argv) {
        (void)pamh;
        (void)flags;
        (void)argc;
        (void)argv;
        return PAM_IGNORE;
}
