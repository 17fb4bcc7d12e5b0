/* local_session.c: whether the PAM caller sits in an active, local user session, decided by the kernel
 * (the caller's cgroup) and logind (the session's remote flag, seat or tty, state and class), never by
 * what the caller says about itself. Environment variables and PAM_RHOST may only add a reason to step
 * aside. A login before its session exists (the `login` option) is judged by login_locality.c. */
#include "pam_localauthd.h"

#include <security/pam_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-login.h>
#include <unistd.h>

static int is_local_host(const char *host) {
        char name[256] = "";
        if (strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0)
                return 1;
        if (gethostname(name, sizeof name - 1) != 0)
                return 0;
        size_t length = strlen(name);
        /* sudo sets PAM_RHOST to this host's own name: that is not a remote session. */
        return strncmp(host, name, length) == 0 && (host[length] == '\0' || host[length] == '.');
}

/* What the caller's environment or PAM_RHOST says about being remote: only ever a reason to step aside. */
static const char *remote_by_caller(pam_handle_t *pamh) {
        const char *rhost = NULL;
        if (pam_get_item(pamh, PAM_RHOST, (const void **)&rhost) == PAM_SUCCESS && rhost && *rhost &&
            !is_local_host(rhost))
                return "PAM_RHOST";
        static const char *const variables[] = {"SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"};
        for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
                if (getenv(variables[i]) || pam_getenv(pamh, variables[i]))
                        return variables[i];
        return NULL;
}

/* logind's word on the session of this process (the PAM caller: sudo, su, polkit's helper). Its parent
 * chain is not consulted: a process outside any session is not in one. */
static const char *logind_refusal(const struct module_options *options, char *detail, size_t size) {
        char *session = NULL, *seat = NULL, *tty = NULL, *class = NULL;
        const char *reason = NULL;
        if (sd_pid_get_session(getpid(), &session) < 0 || !session) {
                snprintf(detail, size, "the caller (pid %d) is in no logind session", (int)getpid());
                return "noSession";
        }
        int remote = sd_session_is_remote(session);
        int has_seat = sd_session_get_seat(session, &seat) >= 0 && seat && *seat;
        int has_tty = sd_session_get_tty(session, &tty) >= 0 && tty && *tty;
        int active = sd_session_is_active(session);
        int class_known = sd_session_get_class(session, &class) >= 0 && class;
        if (remote < 0 || active < 0 || !class_known) {
                reason = "noSession";
                snprintf(detail, size, "logind has no record of session %s", session);
        } else if (remote > 0 && !options->allow_remote) {
                reason = "remoteSession";
                snprintf(detail, size, "logind says session %s is remote", session);
        } else if (strcmp(class, "user") != 0) {
                reason = "sessionClass";
                snprintf(detail, size, "session %s is of class %.32s, not user", session, class);
        } else if (!has_seat && !has_tty && !options->allow_remote) {
                reason = "remoteSession";
                snprintf(detail, size, "session %s has neither a seat nor a terminal", session);
        } else if (active == 0) {
                reason = "inactiveSession";
                snprintf(detail, size, "session %s is not the active one on its seat", session);
        }
        free(session);
        free(seat);
        free(tty);
        free(class);
        return reason;
}

/* Whether the caller is in a logind session of class user (then today's rule judges it, login or not). */
static int in_user_session(void) {
        char *session = NULL, *class = NULL;
        int user = sd_pid_get_session(getpid(), &session) >= 0 && session &&
                   sd_session_get_class(session, &class) >= 0 && class && strcmp(class, "user") == 0;
        free(session);
        free(class);
        return user;
}

const char *local_session_refusal(pam_handle_t *pamh, const struct module_options *options, char *detail, size_t size) {
        detail[0] = '\0';
        /* A login (the `login` option) before its user session exists: the remote rule always holds
         * (allow_remote never lifts it), then the terminal or the seat decides (login_locality.c). */
        if (options->login && !in_user_session()) {
                const char *variable = remote_by_caller(pamh);
                if (variable) {
                        snprintf(detail, size, "the login's %s names a remote session", variable);
                        return "remoteSession";
                }
                return login_refusal(pamh, detail, size);
        }
        if (options->session_check) {
                const char *reason = logind_refusal(options, detail, size);
                if (reason)
                        return reason;
        }
        const char *variable = options->allow_remote ? NULL : remote_by_caller(pamh);
        if (variable) {
                snprintf(detail, size, "the caller's %s names a remote session", variable);
                return "remoteSession";
        }
        return NULL;
}
