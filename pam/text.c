/* text.c: what the module does to text that crosses a boundary: sanitized before it is shown or logged,
 * escaped before it goes into a JSON string; and the two small helpers every file shares (the monotonic
 * clock, and whether an errno says to try again). */
#include "pam_localauthd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

long long monotonic_us(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

long long monotonic_ms(void) {
        return monotonic_us() / 1000;
}

int errno_is_retry(void) {
        return errno == EINTR || errno == EAGAIN;
}
