/* outcome_journal.c: the module's own journal entry for each PAM evaluation, next to the daemon's (same
 * REQUEST_ID). Its MESSAGE says why in words an administrator can act on: the daemon's reason and the
 * next step ("no fingers enrolled for alice: run fprintd-enroll alice"); LA_ERROR keeps the bare name. */
#include "pam_localauthd.h"

#include <security/pam_ext.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <systemd/sd-journal.h>

/* The reason and a next step for an evaluation that did not succeed, or "" when there is nothing to add. */
static void explain(const struct evaluation_result *result, const char *user, char *out, size_t size) {
        const char *name = result->error_name;
        int finger = strcmp(result->biometry, "touchID") == 0;
        out[0] = '\0';
        if (strcmp(result->error_reason, "deviceOwnerMode") == 0)
                snprintf(out, size,
                         "localauthd runs with Owners=device, which never serves PAM: use Owners=user for "
                         "sudo, su and polkit");
        else if (strcmp(name, "biometryNotEnrolled") == 0 && finger)
                snprintf(out, size, "no fingers enrolled for %s: run fprintd-enroll %s", user, user);
        else if (strcmp(name, "biometryNotEnrolled") == 0)
                snprintf(out, size,
                         "nothing enrolled for %s: enroll with localauthctl enroll SENSOR IDENTITY --user %s", user,
                         user);
        else if (strcmp(name, "passcodeNotSet") == 0)
                snprintf(out, size,
                         "%s has no localauthd passcode and this localauthd asks for one before biometry: "
                         "localauthctl passcode set DIGITS",
                         user);
        else if (strcmp(name, "biometryNotAvailable") == 0 && finger)
                snprintf(out, size,
                         "the fingerprint sensor is not available (is fprintd running?): see localauthctl doctor");
        else if (strcmp(name, "biometryNotAvailable") == 0 || strcmp(name, "biometryNotPaired") == 0 ||
                 strcmp(name, "biometryDisconnected") == 0)
                snprintf(out, size, "no biometric sensor is available: see localauthctl doctor");
        else if (strcmp(result->error_reason, "requesterLockedOut") == 0)
                snprintf(out, size,
                         "the user who asked (su or sudo for %s) is locked out after failed matches of "
                         "their own: localauthctl reset-lockout --user THAT-USER",
                         user);
        else if (strcmp(name, "biometryLockout") == 0)
                snprintf(out, size,
                         "biometry is locked out for %s after failed matches: an administrator can run "
                         "localauthctl reset-lockout --user %s",
                         user, user);
        else if (strcmp(name, "authenticationFailed") == 0)
                snprintf(out, size, "no match for %s", user);
        else if (strcmp(name, "daemonNotAnswering") == 0)
                snprintf(out, size,
                         "localauthd accepted the connection but did not answer within 1 s: see systemctl "
                         "status localauthd");
        else if (strcmp(name, "connectionLost") == 0)
                snprintf(out, size, "localauthd closed the connection: see journalctl -u localauthd");
        else if (strcmp(name, "timeout") == 0)
                snprintf(out, size, "no match before timeout=");
        else if (strcmp(name, "notInteractive") == 0)
                snprintf(out, size, "the daemon had nobody to ask for a passcode: use the default policy");
        else if (*name && strcmp(name, "userCancel") != 0 && strcmp(name, "userFallback") != 0 &&
                 strcmp(name, "passwordTyped") != 0)
                snprintf(out, size, "localauthd answered %s%s%s", name, *result->error_reason ? ", " : "",
                         result->error_reason);
}

static const char *pam_code_name(int code) {
        switch (code) {
        case PAM_SUCCESS: return "PAM_SUCCESS";
        case PAM_AUTH_ERR: return "PAM_AUTH_ERR";
        case PAM_MAXTRIES: return "PAM_MAXTRIES";
        case PAM_IGNORE: return "PAM_IGNORE";
        default: return "PAM_AUTHINFO_UNAVAIL";
        }
}

void journal_outcome(pam_handle_t *pamh, const struct outcome_note *note) {
        static const struct evaluation_result none = {.end = END_UNAVAILABLE};
        const struct evaluation_result *result = note->result ? note->result : &none;
        const char *service = NULL, *tty = NULL, *rhost = NULL;
        char s[NAME_MAX_LEN], u[NAME_MAX_LEN], t[NAME_MAX_LEN], r[NAME_MAX_LEN], e[NAME_MAX_LEN], w[REASON_MAX * 2];
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        (void)pam_get_item(pamh, PAM_TTY, (const void **)&tty);
        (void)pam_get_item(pamh, PAM_RHOST, (const void **)&rhost);
        sanitize(service ? service : "", s, sizeof s);
        sanitize(note->user ? note->user : "", u, sizeof u);
        sanitize(tty ? tty : "", t, sizeof t);
        sanitize(rhost ? rhost : "", r, sizeof r);
        sanitize(note->la_error ? note->la_error : "", e, sizeof e);
        if (note->why)
                sanitize(note->why, w, sizeof w);
        else
                explain(result, u, w, sizeof w);
        if (result->end == END_PASSWORD && result->gave_up != END_SUCCESS) {
                size_t length = strlen(w);
                snprintf(w + length, sizeof w - length, "%sthe password was then typed at the module's prompt",
                         length ? "; " : "");
        }
        const char *id = result->request_id;
        const struct step_times *times = &result->times;
        sd_journal_send("MESSAGE=pam_localauthd: %s for %s on %s: %s (%s)%s%s%s%s%s", s, u, *t ? t : "no tty",
                        note->outcome, pam_code_name(note->code), *w ? ": " : "", w, *id ? " [requestID " : "", id,
                        *id ? "]" : "", "MESSAGE_ID=6a3c1f0e9b2d4c7a8e5f1d2c3b4a5968", "PRIORITY=%d",
                        note->code == PAM_SUCCESS ? LOG_NOTICE : LOG_INFO, "SYSLOG_IDENTIFIER=pam_localauthd",
                        "PAM_SERVICE=%s", s, "PAM_USER=%s", u, "PAM_TTY=%s", t, "PAM_RHOST=%s", r, "REQUEST_ID=%s", id,
                        "LA_ERROR=%s", e, "LA_SESSION_CHECK=%s", note->session_check ? "yes" : "no",
                        "LA_SESSION_US=%lld", times->session_us, "LA_CONNECT_US=%lld", times->connect_us,
                        "LA_ANSWER_US=%lld", times->answer_us, "LA_PROMPT_US=%lld", times->prompt_us,
                        "LA_RESULT_US=%lld", times->result_us, "PAM_RESULT=%s", pam_code_name(note->code),
                        "PAM_OUTCOME=%s", note->outcome, NULL);
}
