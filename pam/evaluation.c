/* evaluation.c: one context.evaluatePolicy for PAM_USER, and what the person sees and types meanwhile.
 *
 * With a terminal, the module polls the daemon's socket and the terminal together: a match ends it with
 * success, a typed password (Enter) ends it and goes to the next module as PAM_AUTHTOK, Enter alone is
 * the fallback, Esc or Ctrl-C is a cancel. Without one, it shows the prompt through the conversation and
 * waits for the daemon only. Every wait is bounded by the deadline from timeout=. */
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
#include <time.h>
#include <unistd.h>

enum { HELLO_ID = 1, EVALUATE_ID = 2, CANCEL_ID = 3 };

/* How long the daemon may take to answer session.hello before the module steps aside. */
enum { HELLO_WAIT_MS = 1000 };

static const char PASSWORD_PROMPT[] = "Password: ";

static int errno_is_retry(void) { return errno == EINTR || errno == EAGAIN; }

static long long now_ms(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void sanitize(const char *text, char *out, size_t size) {
        size_t o = 0;
        for (; text && *text && o + 1 < size; text++) {
                unsigned char ch = (unsigned char)*text;
                out[o++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
        }
        out[o] = '\0';
}

int json_escape(const char *text, char *out, size_t size) {
        size_t o = 0;
        for (; *text; text++) {
                unsigned char ch = (unsigned char)*text;
                char escaped[8];
                if (ch == '"' || ch == '\\')
                        snprintf(escaped, sizeof escaped, "\\%c", ch);
                else if (ch < 0x20 || ch == 0x7f)
                        snprintf(escaped, sizeof escaped, "\\u%04x", ch);
                else {
                        escaped[0] = (char)ch;
                        escaped[1] = '\0';
                }
                size_t length = strlen(escaped);
                if (o + length + 1 > size)
                        return -1;
                memcpy(out + o, escaped, length);
                o += length;
        }
        out[o] = '\0';
        return 0;
}

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

static void show_feedback(pam_handle_t *pamh, const struct terminal *terminal, const struct json_document *doc,
                          int params) {
        char what[64], text[160];
        if (json_string(doc, json_member(doc, params, "feedback"), what, sizeof what) != 0)
                return;
        if (strcmp(what, "noMatch") == 0) {
                if (json_is_true(doc, json_member(doc, params, "lockout")))
                        show_line(pamh, terminal, "Biometry is locked out; use the password.", 1);
                else if (json_is_true(doc, json_member(doc, params, "attemptsExhausted")))
                        show_line(pamh, terminal, "Not recognized.", 1);
                else
                        show(pamh, terminal, "Not recognized. Try again.");
        } else if (strcmp(what, "passcodeDelay") != 0 && strcmp(what, "wrongPasscode") != 0) {
                snprintf(text, sizeof text, "Try again (%s).", what);
                show(pamh, terminal, text);
        }
}

static enum evaluation_end end_for_error(const char *name, const char *reason) {
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

/* What one evaluation reads into: the current line and its parse (heap, bounded, one per call). */
struct workspace {
        struct json_document doc;
        char line[DAEMON_LINE_MAX];
        int hello_answered;
        int introduced;
        char biometry[16]; /* session.hello's biometryType: faceID, touchID, opticID, none */
};

/* What the person is asked to do, in the sensor's words. */
static const char *sensor_action(const char *biometry) {
        if (strcmp(biometry, "faceID") == 0)
                return "look at the camera";
        if (strcmp(biometry, "touchID") == 0)
                return "touch the fingerprint sensor";
        if (strcmp(biometry, "opticID") == 0)
                return "look at the sensor";
        return "use the biometric sensor";
}

/* The prompt, once the daemon has said which sensor it has. */
static void introduce(pam_handle_t *pamh, const struct terminal *terminal, const struct module_options *options,
                      const char *biometry) {
        char intro[REASON_MAX + 160];
        if (terminal->fd >= 0)
                snprintf(intro, sizeof intro,
                         "%s: %s, or type the password (Enter alone: password prompt; Esc: cancel)",
                         options->reason, sensor_action(biometry));
        else
                snprintf(intro, sizeof intro, "%s: %s", options->reason, sensor_action(biometry));
        pam_info(pamh, "%s", intro);
        if (terminal->fd >= 0)
                terminal_write(terminal, PASSWORD_PROMPT);
}

/* Handles one line from the daemon; returns 1 when it ended the evaluation. */
static int handle_line(pam_handle_t *pamh, const struct terminal *terminal, struct workspace *work, size_t length,
                       struct evaluation_result *result) {
        struct json_document *const doc = &work->doc;
        const char *line = work->line;
        char method[64];
        long id = 0;
        if (json_parse(doc, line, length) != 0 || doc->tokens[0].type != JSON_OBJECT)
                return 0; /* not something the module understands: ignored, the deadline still holds */
        int method_token = json_member(doc, 0, "method");
        if (method_token >= 0) {
                int params = json_member(doc, 0, "params");
                if (json_string(doc, method_token, method, sizeof method) != 0)
                        return 0;
                if (strcmp(method, "evaluation.started") == 0)
                        keep_request_id(doc, params, result);
                else if (strcmp(method, "evaluation.queued") == 0)
                        show(pamh, terminal, "Waiting for another authentication to finish...");
                else if (strcmp(method, "evaluation.feedback") == 0)
                        show_feedback(pamh, terminal, doc, params);
                return 0;
        }
        if (json_integer(doc, json_member(doc, 0, "id"), &id) != 0)
                return 0;
        if (id == HELLO_ID) {
                work->hello_answered = 1;
                (void)json_string(doc, json_member(doc, json_member(doc, 0, "result"), "biometryType"),
                                  work->biometry, sizeof work->biometry);
        }
        if (id != EVALUATE_ID)
                return 0;
        int answer = json_member(doc, 0, "result");
        if (answer >= 0 && doc->tokens[answer].type == JSON_OBJECT) {
                keep_request_id(doc, answer, result);
                result->end = END_SUCCESS;
                return 1;
        }
        int error = json_member(doc, 0, "error");
        int data = json_member(doc, error, "data");
        char reason[64] = "";
        keep_request_id(doc, data, result);
        if (json_string(doc, json_member(doc, data, "name"), result->error_name, sizeof result->error_name) != 0)
                snprintf(result->error_name, sizeof result->error_name, "unknown");
        (void)json_string(doc, json_member(doc, data, "reason"), reason, sizeof reason);
        result->end = end_for_error(result->error_name, reason);
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
                return 1;
        }
        memset(keys, 0, sizeof keys);
        return 0;
}

static void send_request(struct daemon_link *link, int id, const char *method, const char *params) {
        char line[1536];
        int length = snprintf(line, sizeof line, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}", id,
                              method, params);
        if (length > 0 && (size_t)length < sizeof line)
                (void)daemon_link_send(link, line, (size_t)length);
}

static int start(pam_handle_t *pamh, struct daemon_link *link, const struct module_options *options, const char *user) {
        const char *service = NULL;
        char service_json[NAME_MAX_LEN * 6 + 1], user_json[NAME_MAX_LEN * 6 + 1], reason_json[REASON_MAX * 6 + 1];
        char params[1400];
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        char service_name[NAME_MAX_LEN];
        sanitize(service ? service : "?", service_name, sizeof service_name);
        if (json_escape(service_name, service_json, sizeof service_json) != 0 ||
            json_escape(user, user_json, sizeof user_json) != 0 ||
            json_escape(options->reason, reason_json, sizeof reason_json) != 0)
                return -1;
        snprintf(params, sizeof params, "{\"client\":{\"name\":\"pam_localauthd (%s)\",\"interactive\":true},\"protocol\":1}",
                 service_json);
        send_request(link, HELLO_ID, "session.hello", params);
        int length = snprintf(params, sizeof params, "{\"policy\":\"%s\",\"localizedReason\":\"%s\",\"user\":\"%s\"}",
                              options->policy, reason_json, user_json);
        if (length < 0 || (size_t)length >= sizeof params)
                return -1;
        send_request(link, EVALUATE_ID, "context.evaluatePolicy", params);
        return 0;
}

void evaluate(pam_handle_t *pamh, struct daemon_link *link, struct terminal *terminal,
              const struct module_options *options, const char *user, struct evaluation_result *result) {
        size_t typed = 0;
        long long deadline = now_ms() + options->timeout_ms;
        long long hello_deadline = now_ms() + HELLO_WAIT_MS;
        result->end = END_UNAVAILABLE;
        struct workspace *work = calloc(1, sizeof *work);
        if (!work)
                return;
        if (start(pamh, link, options, user) != 0) {
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
                if (!work->hello_answered) {
                        /* A daemon that accepts but never answers (stopped, wedged) is as good as down. */
                        long long hello_left = hello_deadline - now_ms();
                        if (hello_left <= 0) {
                                result->end = END_UNAVAILABLE;
                                snprintf(result->error_name, sizeof result->error_name, "daemonNotAnswering");
                                break;
                        }
                        if (hello_left < left)
                                left = hello_left;
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
                                int ended = handle_line(pamh, terminal, work, (size_t)length, result);
                                if (work->hello_answered && !work->introduced) {
                                        work->introduced = 1;
                                        introduce(pamh, terminal, options, work->biometry);
                                }
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
        /* The person or the deadline decided: the daemon ends the evaluation too (appCancel). */
        send_request(link, CANCEL_ID, "evaluation.cancel", "{\"id\":2}");
done:
        if (terminal->fd >= 0 && result->end != END_FAILED && result->end != END_LOCKOUT)
                terminal_write(terminal, "\n");
        explicit_bzero(work, sizeof *work);
        free(work);
}
