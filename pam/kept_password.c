/* kept_password.c: see kept_password.h. Every buffer that held the password is wiped with explicit_bzero
 * before the call returns; the password is never logged (only that it was kept, given or dropped). */
#include "kept_password.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <security/pam_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

enum { KEEP_ID = 11, RELEASE_ID = 12, DROP_ID = 13, PASSWORD_MAX = 512 };

/* A reply line and its parse (heap: a line is 16 KiB). */
struct reply {
        char line[DAEMON_LINE_MAX];
        struct json_document doc;
};

/* Sends `request` and waits, at most timeout_ms, for the answer with JSON-RPC id `id` (other lines, such as
 * notifications, are skipped). Returns the token of its "result" (or -1 when it is an error) in reply->doc;
 * -2 when no answer came. */
static int call(struct daemon_link *link, const char *request, size_t length, int id, int timeout_ms,
                struct reply *reply) {
        if (daemon_link_send(link, request, length) != 0)
                return -2;
        long long deadline = monotonic_ms() + timeout_ms;
        for (;;) {
                long line_length;
                while ((line_length = daemon_link_next_line(link, reply->line)) >= 0) {
                        long answer_id = 0;
                        if (json_parse(&reply->doc, reply->line, (size_t)line_length) != 0 ||
                            json_integer(&reply->doc, json_member(&reply->doc, 0, "id"), &answer_id) != 0 ||
                            answer_id != id)
                                continue;
                        return json_member(&reply->doc, 0, "result");
                }
                long long left = deadline - monotonic_ms();
                if (left <= 0)
                        return -2;
                struct pollfd p = {.fd = link->fd, .events = POLLIN};
                int r = poll(&p, 1, (int)left);
                if (r < 0 && !errno_is_retry())
                        return -2;
                if (r > 0 && daemon_link_fill(link) != 0)
                        return -2;
        }
}

/* The error's data.reason of an error answer, sanitized, or "no answer". */
static void error_reason(const struct reply *reply, int answered, char *out, size_t size) {
        snprintf(out, size, "%s", answered ? "refused" : "no answer");
        int data = json_member(&reply->doc, json_member(&reply->doc, 0, "error"), "data");
        if (answered && data >= 0)
                (void)json_string(&reply->doc, json_member(&reply->doc, data, "reason"), out, size);
}

/* The uid of PAM_USER, or -1. */
static long user_uid(pam_handle_t *pamh, const char **user) {
        if (pam_get_user(pamh, user, NULL) != PAM_SUCCESS || !*user || !**user || strlen(*user) >= NAME_MAX_LEN)
                return -1;
        struct passwd entry, *found = NULL;
        char buffer[4096];
        if (getpwnam_r(*user, &entry, buffer, sizeof buffer, &found) != 0 || !found)
                return -1;
        return (long)found->pw_uid;
}

static struct daemon_link *connect_daemon(const struct module_options *options) {
        struct daemon_link *link = calloc(1, sizeof *link);
        if (link && daemon_link_open(link, options->socket_path, options->daemon_user) == 0)
                return link;
        free(link);
        return NULL;
}

static void close_daemon(struct daemon_link *link) {
        if (!link)
                return;
        daemon_link_close(link);
        explicit_bzero(link, sizeof *link);
        free(link);
}

int keep_password(pam_handle_t *pamh, const struct module_options *options) {
        const char *user = NULL, *password = NULL;
        long uid = user_uid(pamh, &user);
        if (uid < 0 || geteuid() != 0)
                return PAM_IGNORE;
        if (pam_get_item(pamh, PAM_AUTHTOK, (const void **)&password) != PAM_SUCCESS || !password || !*password ||
            strlen(password) > PASSWORD_MAX)
                return PAM_IGNORE;
        struct daemon_link *link = connect_daemon(options);
        struct reply *reply = calloc(1, sizeof *reply);
        char *request = calloc(1, DAEMON_SEND_MAX), *escaped = calloc(1, PASSWORD_MAX * 6 + 1);
        char reason[NAME_MAX_LEN] = "not connected";
        int kept = 0;
        if (link && reply && request && escaped && json_escape(password, escaped, PASSWORD_MAX * 6 + 1) == 0) {
                int length = snprintf(request, DAEMON_SEND_MAX,
                                      "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"login.keepPassword\","
                                      "\"params\":{\"uid\":%ld,\"password\":\"%s\"}}\n",
                                      KEEP_ID, uid, escaped);
                if (length > 0 && length < DAEMON_SEND_MAX) {
                        /* The helper takes about 2 s to say no (pam_unix's delay). */
                        int result = call(link, request, (size_t)length, KEEP_ID, options->timeout_ms, reply);
                        kept = result >= 0 && json_is_true(&reply->doc, json_member(&reply->doc, result, "kept"));
                        if (result >= 0 && !kept)
                                snprintf(reason, sizeof reason, "not the account's password");
                        else if (result < 0)
                                error_reason(reply, result == -1, reason, sizeof reason);
                }
        }
        if (request)
                explicit_bzero(request, DAEMON_SEND_MAX);
        if (escaped)
                explicit_bzero(escaped, PASSWORD_MAX * 6 + 1);
        if (reply)
                explicit_bzero(reply, sizeof *reply);
        free(request);
        free(escaped);
        free(reply);
        close_daemon(link);
        char name[NAME_MAX_LEN];
        sanitize(user, name, sizeof name);
        if (kept)
                pam_syslog(pamh, LOG_NOTICE, "login password of %s kept by localauthd for this boot", name);
        else
                pam_syslog(pamh, LOG_NOTICE, "login password of %s not kept: %s", name, reason);
        return PAM_IGNORE;
}

int release_password(pam_handle_t *pamh, struct daemon_link *link, const char *request_id, int timeout_ms) {
        const char *service = NULL;
        char service_name[NAME_MAX_LEN], service_json[NAME_MAX_LEN * 6 + 1], request[512];
        (void)pam_get_item(pamh, PAM_SERVICE, (const void **)&service);
        sanitize(service ? service : "?", service_name, sizeof service_name);
        if (!request_id[0] || json_escape(service_name, service_json, sizeof service_json) != 0)
                return 0;
        int length = snprintf(request, sizeof request,
                              "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"login.releasePassword\","
                              "\"params\":{\"requestID\":\"%s\",\"service\":\"%s\"}}\n",
                              RELEASE_ID, request_id, service_json);
        struct reply *reply = calloc(1, sizeof *reply);
        char *password = calloc(1, PASSWORD_MAX + 1);
        int set = 0;
        if (reply && password && length > 0 && (size_t)length < sizeof request) {
                int result =
                        call(link, request, (size_t)length, RELEASE_ID, timeout_ms < 2000 ? timeout_ms : 2000, reply);
                if (result >= 0 && json_secret(&reply->doc, json_member(&reply->doc, result, "password"), password,
                                               PASSWORD_MAX + 1) > 0)
                        set = pam_set_item(pamh, PAM_AUTHTOK, password) == PAM_SUCCESS;
        }
        if (password)
                explicit_bzero(password, PASSWORD_MAX + 1);
        if (reply)
                explicit_bzero(reply, sizeof *reply);
        /* The answer's bytes may still sit in the link's buffer. */
        explicit_bzero(link->buffer, sizeof link->buffer);
        link->used = 0;
        free(password);
        free(reply);
        return set;
}

int drop_password(pam_handle_t *pamh, const struct module_options *options) {
        const char *user = NULL;
        long uid = user_uid(pamh, &user);
        if (uid < 0 || geteuid() != 0)
                return PAM_IGNORE;
        struct daemon_link *link = connect_daemon(options);
        struct reply *reply = calloc(1, sizeof *reply);
        char request[256];
        int length = snprintf(request, sizeof request,
                              "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"login.dropPassword\","
                              "\"params\":{\"uid\":%ld,\"reason\":\"passwordChanged\"}}\n",
                              DROP_ID, uid);
        int result = -2;
        if (link && reply && length > 0 && (size_t)length < sizeof request)
                result = call(link, request, (size_t)length, DROP_ID, 2000, reply);
        if (result >= 0 && json_is_true(&reply->doc, json_member(&reply->doc, result, "dropped"))) {
                char name[NAME_MAX_LEN];
                sanitize(user, name, sizeof name);
                pam_syslog(pamh, LOG_NOTICE, "kept login password of %s dropped: the password changed", name);
        }
        free(reply);
        close_daemon(link);
        return PAM_IGNORE;
}

/* Appends code point `c` as UTF-8; -1 when it does not fit or is not a scalar value. */
static int put_utf8(unsigned long c, char *out, size_t size, size_t *o) {
        unsigned char bytes[4];
        size_t n;
        if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
                return -1;
        if (c < 0x80) {
                bytes[0] = (unsigned char)c;
                n = 1;
        } else if (c < 0x800) {
                bytes[0] = (unsigned char)(0xc0 | (c >> 6));
                bytes[1] = (unsigned char)(0x80 | (c & 0x3f));
                n = 2;
        } else if (c < 0x10000) {
                bytes[0] = (unsigned char)(0xe0 | (c >> 12));
                bytes[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
                bytes[2] = (unsigned char)(0x80 | (c & 0x3f));
                n = 3;
        } else {
                bytes[0] = (unsigned char)(0xf0 | (c >> 18));
                bytes[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
                bytes[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
                bytes[3] = (unsigned char)(0x80 | (c & 0x3f));
                n = 4;
        }
        if (*o + n + 1 > size)
                return -1;
        memcpy(out + *o, bytes, n);
        *o += n;
        explicit_bzero(bytes, sizeof bytes);
        return 0;
}

/* Four hex digits at p, or -1. */
static long hex4(const char *p, const char *end) {
        if (end - p < 4)
                return -1;
        long value = 0;
        for (int i = 0; i < 4; i++) {
                char ch = p[i];
                int digit = ch >= '0' && ch <= '9'   ? ch - '0'
                            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                                     : -1;
                if (digit < 0)
                        return -1;
                value = value * 16 + digit;
        }
        return value;
}

long json_secret(const struct json_document *doc, int index, char *out, size_t size) {
        if (index < 0 || index >= doc->count || doc->tokens[index].type != JSON_STRING || size < 2)
                return -1;
        const char *p = doc->text + doc->tokens[index].start, *end = doc->text + doc->tokens[index].end;
        size_t o = 0;
        while (p < end) {
                if (*p != '\\') {
                        if (*p == '\0' || o + 2 > size)
                                goto fail;
                        out[o++] = *p++;
                        continue;
                }
                if (++p >= end)
                        goto fail;
                char escape = *p++;
                const char *simple = strchr("\"\\/bfnrt", escape);
                if (escape != 'u' && simple && escape) {
                        static const char decoded[] = "\"\\/\b\f\n\r\t";
                        if (o + 2 > size)
                                goto fail;
                        out[o++] = decoded[simple - "\"\\/bfnrt"];
                        continue;
                }
                long unit = escape == 'u' ? hex4(p, end) : -1;
                if (unit < 0)
                        goto fail;
                p += 4;
                unsigned long c = (unsigned long)unit;
                if (c >= 0xd800 && c <= 0xdbff) {
                        long low = end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2, end) : -1;
                        if (low < 0xdc00 || low > 0xdfff)
                                goto fail;
                        c = 0x10000 + ((c - 0xd800) << 10) + ((unsigned long)low - 0xdc00);
                        p += 6;
                }
                if (put_utf8(c, out, size, &o) != 0)
                        goto fail;
        }
        out[o] = '\0';
        return (long)o;
fail:
        explicit_bzero(out, size);
        return -1;
}
