/* evaluation.c: one context.evaluatePolicy for PAM_USER, and what the person sees and types meanwhile.
 *
 * One write sends session.hello, context.canEvaluatePolicy and context.evaluatePolicy (no round trip is
 * waited for in between). Nothing is shown until the daemon has said it can evaluate with a biometric
 * sensor: when it cannot, the module steps aside saying nothing (or one line for a lockout), and the
 * next module's prompt is the only one. The finger (or face) prompt is shown only once this evaluation
 * owns the sensor and the driver listens (evaluation.armed, or a first feedback, which only a listening
 * sensor gives): a touch at the prompt is never lost, and never answers another requester's evaluation.
 * Before that, one line says the module waits when the evaluation is queued. With a terminal, the module
 * then polls the daemon's socket and
 * the terminal together: a match ends it with success, a typed password (Enter) ends it and goes to the
 * next module as PAM_AUTHTOK, Enter alone is the fallback, Esc or Ctrl-C is a cancel. When the sensor
 * gives up after the prompt was shown, the prompt stays and the password typed there goes on as
 * PAM_AUTHTOK, so that sudo does not ask a second time. Without a terminal, the prompt goes through the
 * conversation and the module waits for the daemon only. Every wait is bounded. */
#include "daemon_link.h"
#include "json_reader.h"
#include "pam_localauthd.h"
#include "terminal.h"

#include <errno.h>
#include <poll.h>
#include <security/pam_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { HELLO_ID = 1, CAN_EVALUATE_ID = 2, EVALUATE_ID = 3, CANCEL_ID = 4 };

/* How long the daemon may take to say whether it can evaluate before the module steps aside. */
enum { ANSWER_WAIT_MS = 1000 };

/* How long the module's prompt waits for the password once the sensor gave up: sudo's own default
 * (passwd_timeout, 5 minutes). */
enum { PASSWORD_WAIT_MS = 300000 };

static const char PASSWORD_PROMPT[] = "Password: ";

static int errno_is_retry(void) { return errno == EINTR || errno == EAGAIN; }

static long long now_ms(void) { return monotonic_us() / 1000; }

/* What one evaluation reads into: the current line and its parse (heap, bounded, one per call). */
struct workspace {
        struct json_document doc;
        char line[DAEMON_LINE_MAX];
        int can_evaluate;        /* the daemon said it can evaluate: the prompt may be shown */
        int evaluation_answered; /* context.evaluatePolicy's answer came: nothing to cancel */
        int said_waiting;        /* the line that the evaluation waits for another was shown */
        int password_open;       /* a password prompt ends the terminal's last line (before the prompt) */
};

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

static void keep_request_id(const struct json_document *doc, int object, struct evaluation_result *result) {
        char id[REQUEST_ID_MAX];
        if (json_string(doc, json_member(doc, object, "requestID"), id, sizeof id) != 0)
                return;
        size_t o = 0;
        for (const char *p = id; *p && o + 1 < sizeof result->request_id; p++)
                if ((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '-')
                        result->request_id[o++] = *p;
        result->request_id[o] = '\0';
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

static void show_feedback(pam_handle_t *pamh, const struct terminal *terminal, const struct json_document *doc,
                          int params) {
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

static enum evaluation_end end_for_error(const char *name, const char *reason) {
        if (strcmp(reason, "deviceOwnerMode") == 0)
                return END_ASIDE;
        if (strcmp(name, "authenticationFailed") == 0)
                return END_FAILED;
        if (strcmp(name, "biometryLockout") == 0)
                return END_LOCKOUT;
        if (strcmp(name, "userFallback") == 0)
                return END_FALLBACK;
        if (strcmp(name, "userCancel") == 0 || strcmp(name, "appCancel") == 0)
                return END_CANCEL;
        if (strcmp(name, "systemCancel") == 0 && strcmp(reason, "timeout") == 0)
                return END_TIMEOUT;
        return END_UNAVAILABLE;
}

/* Reads an error (a JSON-RPC error's data, or canEvaluatePolicy's error object) into the result. */
static void keep_error(const struct json_document *doc, int object, struct evaluation_result *result) {
        keep_request_id(doc, object, result);
        (void)json_string(doc, json_member(doc, object, "reason"), result->error_reason, sizeof result->error_reason);
        if (json_string(doc, json_member(doc, object, "name"), result->error_name, sizeof result->error_name) != 0)
                /* A refusal (-32003 and the like) names no LAError: its reason stands for it. */
                snprintf(result->error_name, sizeof result->error_name, "%s",
                         *result->error_reason ? result->error_reason : "unknown");
        result->end = end_for_error(result->error_name, result->error_reason);
}

/* What the person is asked to do, in the sensor's words; NULL for no biometric sensor. */
static const char *sensor_action(const char *biometry) {
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
                         "%s: %s, or type the password (Enter alone: password prompt; Esc: cancel)",
                         options->reason, sensor_action(result->biometry));
        else
                snprintf(intro, sizeof intro, "%s: %s", options->reason, sensor_action(result->biometry));
        pam_info(pamh, "%s", intro);
        if (terminal->fd >= 0)
                terminal_write(terminal, PASSWORD_PROMPT);
        result->prompted = 1;
        result->times.prompt_us = monotonic_us() - result->started_us;
}

/* context.canEvaluatePolicy's answer; returns 1 when it ended the evaluation (the daemon cannot help). */
static int handle_can_evaluate(pam_handle_t *pamh, struct workspace *work, struct evaluation_result *result) {
        const struct json_document *doc = &work->doc;
        int answer = json_member(doc, 0, "result");
        result->times.answer_us = monotonic_us() - result->started_us;
        if (answer < 0 || doc->tokens[answer].type != JSON_OBJECT) {
                keep_error(doc, json_member(doc, json_member(doc, 0, "error"), "data"), result);
                return 1;
        }
        (void)json_string(doc, json_member(doc, answer, "biometryType"), result->biometry, sizeof result->biometry);
        if (!json_is_true(doc, json_member(doc, answer, "canEvaluate"))) {
                keep_error(doc, json_member(doc, answer, "error"), result);
                if (result->end == END_LOCKOUT)
                        pam_info(pamh, "%s", "Biometry is locked out; use the password.");
                return 1;
        }
        if (!sensor_action(result->biometry)) {
                /* Nothing the person could be asked to use: say nothing, the password comes next. */
                snprintf(result->error_name, sizeof result->error_name, "biometryNotAvailable");
                result->end = END_UNAVAILABLE;
                return 1;
        }
        work->can_evaluate = 1;
        return 0;
}

/* The sensor listens for this evaluation: the prompt, the first time. */
static void sensor_armed(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                         const struct workspace *work, struct evaluation_result *result) {
        if (!work->can_evaluate || result->prompted)
                return;
        if (work->password_open)
                terminal_write(terminal, "\n");
        introduce(pamh, terminal, options, result);
}

/* The evaluation waits behind another: said once, on its own line, before the prompt. */
static void say_waiting(pam_handle_t *pamh, const struct terminal *terminal, struct workspace *work,
                        const struct evaluation_result *result) {
        static const char waiting[] = "Waiting for another authentication to finish...";
        if (work->said_waiting)
                return;
        work->said_waiting = 1;
        if (result->prompted) {
                show(pamh, terminal, waiting);
                return;
        }
        /* No "touch" yet: the sensor is not this evaluation's. The password may be typed meanwhile. */
        pam_info(pamh, "%s", waiting);
        if (terminal->fd >= 0) {
                terminal_write(terminal, PASSWORD_PROMPT);
                work->password_open = 1;
        }
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
                        keep_request_id(doc, params, result);
                } else if (strcmp(method, "evaluation.armed") == 0) {
                        sensor_armed(pamh, terminal, options, work, result);
                } else if (strcmp(method, "evaluation.queued") == 0 && work->can_evaluate) {
                        say_waiting(pamh, terminal, work, result);
                } else if (strcmp(method, "evaluation.feedback") == 0) {
                        sensor_armed(pamh, terminal, options, work, result);
                        if (result->prompted)
                                show_feedback(pamh, terminal, doc, params);
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
                keep_request_id(doc, answer, result);
                result->end = END_SUCCESS;
                return 1;
        }
        keep_error(doc, json_member(doc, json_member(doc, 0, "error"), "data"), result);
        return 1;
}

/* Handles keys typed on the terminal; returns 1 when they ended the evaluation. */
static int handle_keys(struct terminal *terminal, struct evaluation_result *result, size_t *typed) {
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
                        snprintf(result->error_name, sizeof result->error_name, *typed == 0 ? "userFallback" : "passwordTyped");
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

/* Appends one request line (with its newline) to out; returns -1 when it does not fit. */
static int add_request(char *out, size_t size, size_t *used, int id, const char *method, const char *params) {
        int length = snprintf(out + *used, size - *used, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}\n",
                              id, method, params);
        if (length < 0 || (size_t)length >= size - *used)
                return -1;
        *used += (size_t)length;
        return 0;
}

/* The three requests, in one write: hello, canEvaluatePolicy and evaluatePolicy for `user`, each naming
 * the requester (the real uid of the PAM caller: who ran sudo or su). */
static int start(pam_handle_t *pamh, struct daemon_link *link, const struct module_options *options, const char *user) {
        const char *service = NULL;
        char service_json[NAME_MAX_LEN * 6 + 1], user_json[NAME_MAX_LEN * 6 + 1], reason_json[REASON_MAX * 6 + 1];
        char params[1400], requests[DAEMON_SEND_MAX];
        size_t used = 0;
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        char service_name[NAME_MAX_LEN];
        sanitize(service ? service : "?", service_name, sizeof service_name);
        if (json_escape(service_name, service_json, sizeof service_json) != 0 ||
            json_escape(user, user_json, sizeof user_json) != 0 ||
            json_escape(options->reason, reason_json, sizeof reason_json) != 0)
                return -1;
        snprintf(params, sizeof params, "{\"client\":{\"name\":\"pam_localauthd (%s)\",\"interactive\":true},\"protocol\":1}",
                 service_json);
        if (add_request(requests, sizeof requests, &used, HELLO_ID, "session.hello", params) != 0)
                return -1;
        snprintf(params, sizeof params, "{\"policy\":\"%s\",\"user\":\"%s\",\"requester\":%u}", options->policy,
                 user_json, (unsigned)getuid());
        if (add_request(requests, sizeof requests, &used, CAN_EVALUATE_ID, "context.canEvaluatePolicy", params) != 0)
                return -1;
        int length = snprintf(params, sizeof params,
                              "{\"policy\":\"%s\",\"localizedReason\":\"%s\",\"user\":\"%s\",\"requester\":%u}",
                              options->policy, reason_json, user_json, (unsigned)getuid());
        if (length < 0 || (size_t)length >= sizeof params ||
            add_request(requests, sizeof requests, &used, EVALUATE_ID, "context.evaluatePolicy", params) != 0)
                return -1;
        return daemon_link_send(link, requests, used);
}

static int sensor_gave_up(enum evaluation_end end) {
        return end == END_FAILED || end == END_LOCKOUT || end == END_UNAVAILABLE || end == END_TIMEOUT;
}

static void cancel_evaluation(struct daemon_link *link, struct workspace *work) {
        char request[128];
        size_t used = 0;
        char params[32];
        snprintf(params, sizeof params, "{\"id\":%d}", EVALUATE_ID);
        if (!work->evaluation_answered && add_request(request, sizeof request, &used, CANCEL_ID, "evaluation.cancel", params) == 0)
                (void)daemon_link_send(link, request, used);
        work->evaluation_answered = 1;
}

/* The sensor gave up after the prompt was shown: the prompt stays, and what is typed there goes on as
 * the password (one prompt, not the module's and then sudo's). */
static void keep_prompt_for_password(pam_handle_t *pamh, struct terminal *terminal, struct evaluation_result *result,
                                     size_t *typed) {
        enum evaluation_end gave_up = result->end;
        if (gave_up == END_UNAVAILABLE)
                show_line(pamh, terminal, "The sensor is not available.", 1);
        else if (gave_up == END_TIMEOUT)
                show_line(pamh, terminal, "No match in time.", 1);
        terminal_write(terminal, PASSWORD_PROMPT);
        char error_name[NAME_MAX_LEN];
        memcpy(error_name, result->error_name, sizeof error_name);
        long long deadline = now_ms() + PASSWORD_WAIT_MS;
        while (terminal->fd >= 0) {
                long long left = deadline - now_ms();
                if (left <= 0)
                        break;
                struct pollfd key = {.fd = terminal->fd, .events = POLLIN};
                int r = poll(&key, 1, (int)left);
                if (r < 0 && !errno_is_retry())
                        break;
                if (r > 0 && handle_keys(terminal, result, typed)) {
                        result->gave_up = gave_up;
                        memcpy(result->error_name, error_name, sizeof error_name); /* the sensor's reason */
                        return;
                }
        }
        result->end = gave_up;
}

void evaluate(pam_handle_t *pamh, struct daemon_link *link, struct terminal *terminal,
              const struct module_options *options, const char *user, struct evaluation_result *result) {
        size_t typed = 0;
        long long deadline = now_ms() + options->timeout_ms;
        long long answer_deadline = now_ms() + ANSWER_WAIT_MS;
        result->end = END_UNAVAILABLE;
        struct workspace *work = calloc(1, sizeof *work);
        if (!work)
                return;
        if (start(pamh, link, options, user) != 0) {
                snprintf(result->error_name, sizeof result->error_name, "connectionLost");
                free(work);
                return;
        }
        for (;;) {
                long long left = deadline - now_ms();
                if (left <= 0) {
                        result->end = END_TIMEOUT;
                        snprintf(result->error_name, sizeof result->error_name, "timeout");
                        break;
                }
                if (!work->can_evaluate) {
                        /* A daemon that accepts but never answers (stopped, wedged) is as good as down. */
                        long long answer_left = answer_deadline - now_ms();
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
                if (terminal->fd >= 0 && fds[1].revents && handle_keys(terminal, result, &typed))
                        break;
        }
done:
        /* The person, the deadline or the daemon's "cannot" decided: the daemon ends the evaluation too. */
        cancel_evaluation(link, work);
        if (terminal->fd >= 0 && result->prompted && sensor_gave_up(result->end))
                keep_prompt_for_password(pamh, terminal, result, &typed);
        if (terminal->fd >= 0 && result->prompted)
                terminal_write(terminal, "\n");
        explicit_bzero(work, sizeof *work);
        free(work);
}
