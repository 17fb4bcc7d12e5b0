/* prompt.h: what the person sees and types during one evaluation: the module's prompt, the daemon's
 * progress in words, and the keys typed on the terminal. Every line goes through the PAM conversation
 * (sudo and polkit's agents show it their way); on a terminal the module's "Password: " follows. */
#ifndef PAM_LOCALAUTHD_PROMPT_H
#define PAM_LOCALAUTHD_PROMPT_H

#include "json_reader.h"
#include "pam_localauthd.h"
#include "terminal.h"

#include <stddef.h>

/* What the prompt has shown so far beyond result->prompted. */
struct prompt_lines {
        int said_waiting;  /* the line that the evaluation waits for another was shown */
        int password_open; /* a password prompt ends the terminal's last line (before the prompt) */
};

/* What the person is asked to do with a sensor of the daemon's biometryType, in the sensor's words;
 * NULL for no biometric sensor. */
const char *prompt_sensor_action(const char *biometry);

/* The prompt, once this evaluation owns the sensor and it listens (the first time only). */
void prompt_armed(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                  const struct prompt_lines *lines, struct evaluation_result *result);

/* The evaluation waits behind another: said once, on its own line (before the prompt, with no "touch"). */
void prompt_waiting(pam_handle_t *pamh, const struct terminal *terminal, struct prompt_lines *lines,
                    const struct evaluation_result *result);

/* An evaluation.feedback's params in words (a no-match, a retry reason), for a prompt that was shown. */
void prompt_feedback(pam_handle_t *pamh, const struct terminal *terminal, const struct json_document *doc, int params);

/* Handles keys typed on the terminal; returns 1 when they ended the evaluation (a cancel, the fallback,
 * a typed password in result->password). */
int prompt_keys(struct terminal *terminal, struct evaluation_result *result, size_t *typed);

/* Whether the evaluation ended with the sensor giving up (no match, lockout, gone, timeout). */
int prompt_sensor_gave_up(enum evaluation_end end);

/* The sensor gave up after the prompt was shown: the prompt stays, and what is typed there goes on as
 * the password (one prompt, not the module's and then sudo's), for up to 5 minutes. */
void prompt_password_after(pam_handle_t *pamh, struct terminal *terminal, struct evaluation_result *result,
                           size_t *typed);

#endif
