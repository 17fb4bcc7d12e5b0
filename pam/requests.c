/* requests.c: see requests.h. */
#include "requests.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void answer_request_id(const struct json_document *doc, int object, struct evaluation_result *result) {
        char id[REQUEST_ID_MAX];
        if (json_string(doc, json_member(doc, object, "requestID"), id, sizeof id) != 0)
                return;
        size_t o = 0;
        for (const char *p = id; *p && o + 1 < sizeof result->request_id; p++)
                if ((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '-')
                        result->request_id[o++] = *p;
        result->request_id[o] = '\0';
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

void answer_error(const struct json_document *doc, int object, struct evaluation_result *result) {
        answer_request_id(doc, object, result);
        (void)json_string(doc, json_member(doc, object, "reason"), result->error_reason, sizeof result->error_reason);
        if (json_string(doc, json_member(doc, object, "name"), result->error_name, sizeof result->error_name) != 0)
                /* A refusal (-32003 and the like) names no LAError: its reason stands for it. */
                snprintf(result->error_name, sizeof result->error_name, "%s",
                         *result->error_reason ? result->error_reason : "unknown");
        result->end = end_for_error(result->error_name, result->error_reason);
}

/* Appends one request line (with its newline) to out; returns -1 when it does not fit. */
static int add_request(char *out, size_t size, size_t *used, int id, const char *method, const char *params) {
        int length = snprintf(out + *used, size - *used,
                              "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}\n", id, method, params);
        if (length < 0 || (size_t)length >= size - *used)
                return -1;
        *used += (size_t)length;
        return 0;
}

int requests_start(pam_handle_t *pamh, struct daemon_link *link, const struct module_options *options,
                   const char *user) {
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
        snprintf(params, sizeof params,
                 "{\"client\":{\"name\":\"pam_localauthd (%s)\",\"interactive\":true},\"protocol\":1}", service_json);
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

void requests_cancel(struct daemon_link *link, int *answered) {
        char request[128];
        size_t used = 0;
        char params[32];
        snprintf(params, sizeof params, "{\"id\":%d}", EVALUATE_ID);
        if (!*answered && add_request(request, sizeof request, &used, CANCEL_ID, "evaluation.cancel", params) == 0)
                (void)daemon_link_send(link, request, used);
        *answered = 1;
}
