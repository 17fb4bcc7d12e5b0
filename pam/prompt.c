/* prompt.c: see prompt.h. */
#include "prompt.h"

#include <errno.h>
#include <poll.h>
#include <security/pam_ext.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* How long the module's prompt waits for the password once the sensor gave up: sudo's own default
 * (passwd_timeout, 5 minutes). */
enum { PASSWORD_WAIT_MS = 300000 };

static const char PASSWORD_PROMPT[] = "Password: ";

/* One line to the person: through the conversation (sudo and polkit's agents show it their way); on a
 * terminal, the password prompt again after it unless the line ends the evaluation. */
static void show_line(pam_handle_t *pamh, const struct terminal *terminal, const char *text, int final) {
        if (terminal->fd >= 0)
                terminal_write(terminal, "\n");
        pam_info(pamh, "%s", text);
        if (terminal->fd >= 0 && !final)
                terminal_write(terminal, PASSWORD_PROMPT);
}

static void show(pam_handle_t *pamh, const struct terminal *terminal, const char *text) {
        show_line(pamh, terminal, text, 0);
}

/* What the person reads for a retry reason: the daemon's closed vocabulary (docs/drivers.md, "Retry
 * reasons"), in words; any other word is shown as a plain "Try again." and never printed. */
static const char *retry_text(const char *reason) {
        static const struct {
                const char *word;
                const char *text;
        } known[] = {
                {"retryScan", "Could not read the finger. Try again."},
                {"swipeTooShort", "Swipe too short. Try again."},
                {"fingerNotCentered", "Finger not centered. Try again."},
                {"removeAndRetry", "Remove your finger and try again."},
                {"tooFast", "Too fast. Try again."},
                {"faceNotCentered", "Face not centered. Try again."},
                {"tooDark", "Too dark. Try again."},
        };
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
                if (strcmp(reason, known[i].word) == 0)
                        return known[i].text;
        return "Try again.";
}

void prompt_feedback(pam_handle_t *pamh, const struct terminal *terminal, const struct json_document *doc, int params) {
        char what[64];
        if (json_string(doc, json_member(doc, params, "feedback"), what, sizeof what) != 0)
                return;
        if (strcmp(what, "noMatch") == 0) {
                if (json_is_true(doc, json_member(doc, params, "lockout")))
                        show_line(pamh, terminal, "Biometry is locked out; use the password.", 1);
                else if (json_is_true(doc, json_member(doc, params, "attemptsExhausted")))
                        show_line(pamh, terminal, "Not recognized.", 1);
                else
                        show(pamh, terminal, "Not recognized. Try again.");
        } else if (strcmp(what, "passcodeDelay") != 0 && strcmp(what, "wrongPasscode") != 0 &&
                   strcmp(what, "awaitingChoice") != 0) {
                /* Passcode feedback and Face ID's wait for the fallback choice (which a system
                 * evaluation never reaches) are not about another try at the sensor. */
                show(pamh, terminal, retry_text(what));
        }
}

const char *prompt_sensor_action(const char *biometry) {
        if (strcmp(biometry, "faceID") == 0)
                return "look at the camera";
        if (strcmp(biometry, "touchID") == 0)
                return "touch the fingerprint sensor";
        if (strcmp(biometry, "opticID") == 0)
                return "look at the sensor";
        return NULL;
}

/* The prompt, once the daemon has said it can evaluate and with which kind of sensor. */
static void introduce(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                      struct evaluation_result *result) {
        char intro[REASON_MAX + 160];
        if (terminal->fd >= 0)
                snprintf(intro, sizeof intro,
                         "%s: %s, or type the password (Enter alone: password prompt; Esc: cancel)", options->reason,
                         prompt_sensor_action(result->biometry));
        else
                snprintf(intro, sizeof intro, "%s: %s", options->reason, prompt_sensor_action(result->biometry));
        pam_info(pamh, "%s", intro);
        if (terminal->fd >= 0)
                terminal_write(terminal, PASSWORD_PROMPT);
        result->prompted = 1;
        result->times.prompt_us = monotonic_us() - result->started_us;
}

void prompt_armed(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                  const struct prompt_lines *lines, struct evaluation_result *result) {
        if (result->prompted)
                return;
        if (lines->password_open)
                terminal_write(terminal, "\n");
        introduce(pamh, terminal, options, result);
}

void prompt_waiting(pam_handle_t *pamh, const struct terminal *terminal, struct prompt_lines *lines,
                    const struct evaluation_result *result) {
        static const char waiting[] = "Waiting for another authentication to finish...";
        if (lines->said_waiting)
                return;
        lines->said_waiting = 1;
        if (result->prompted) {
                show(pamh, terminal, waiting);
                return;
        }
        /* No "touch" yet: the sensor is not this evaluation's. The password may be typed meanwhile. */
        pam_info(pamh, "%s", waiting);
        if (terminal->fd >= 0) {
                terminal_write(terminal, PASSWORD_PROMPT);
                lines->password_open = 1;
        }
}

int prompt_keys(struct terminal *terminal, struct evaluation_result *result, size_t *typed) {
        unsigned char keys[64];
        ssize_t n = read(terminal->fd, keys, sizeof keys);
        if (n <= 0) {
                if (n < 0 && errno_is_retry())
                        return 0;
                terminal_close(terminal); /* hung up: keep waiting for the sensor alone */
                return 0;
        }
        for (ssize_t i = 0; i < n; i++) {
                unsigned char key = keys[i];
                if (key == 0x03 || key == 0x1b) {
                        result->end = END_CANCEL;
                        snprintf(result->error_name, sizeof result->error_name, "userCancel");
                } else if (key == '\n' || key == '\r') {
                        result->end = *typed == 0 ? END_FALLBACK : END_PASSWORD;
                        snprintf(result->error_name, sizeof result->error_name,
                                 *typed == 0 ? "userFallback" : "passwordTyped");
                } else if (key == 0x7f || key == 0x08) {
                        if (*typed > 0)
                                result->password[--*typed] = '\0';
                        continue;
                } else if (key == 0x15) {
                        memset(result->password, 0, sizeof result->password);
                        *typed = 0;
                        continue;
                } else {
                        if (key >= 0x20 && *typed + 1 < sizeof result->password)
                                result->password[(*typed)++] = (char)key;
                        continue;
                }
                memset(keys, 0, sizeof keys);
                result->times.result_us = monotonic_us() - result->started_us;
                return 1;
        }
        memset(keys, 0, sizeof keys);
        return 0;
}

int prompt_sensor_gave_up(enum evaluation_end end) {
        return end == END_FAILED || end == END_LOCKOUT || end == END_UNAVAILABLE || end == END_TIMEOUT;
}

void prompt_password_after(pam_handle_t *pamh, struct terminal *terminal, struct evaluation_result *result,
                           size_t *typed) {
        enum evaluation_end gave_up = result->end;
        if (gave_up == END_UNAVAILABLE)
                show_line(pamh, terminal, "The sensor is not available.", 1);
        else if (gave_up == END_TIMEOUT)
                show_line(pamh, terminal, "No match in time.", 1);
        terminal_write(terminal, PASSWORD_PROMPT);
        char error_name[NAME_MAX_LEN];
        memcpy(error_name, result->error_name, sizeof error_name);
        long long deadline = monotonic_ms() + PASSWORD_WAIT_MS;
        while (terminal->fd >= 0) {
                long long left = deadline - monotonic_ms();
                if (left <= 0)
                        break;
                struct pollfd key = {.fd = terminal->fd, .events = POLLIN};
                int r = poll(&key, 1, (int)left);
                if (r < 0 && !errno_is_retry())
                        break;
                if (r > 0 && prompt_keys(terminal, result, typed)) {
                        result->gave_up = gave_up;
                        memcpy(result->error_name, error_name, sizeof error_name); /* the sensor's reason */
                        return;
                }
        }
        result->end = gave_up;
}
