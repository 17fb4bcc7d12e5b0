/* json_reader_fuzz.c: libFuzzer over the module's JSON reader. Every input is parsed; when it parses,
 * every token is read back as a string (into a small buffer, checked to be printable ASCII and
 * terminated), as an integer, and every object's members are looked up by the names the module uses. */
#include "../json_reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static struct json_document doc;
        static const char *const keys[] = {"id",
                                           "method",
                                           "params",
                                           "result",
                                           "error",
                                           "data",
                                           "name",
                                           "requestID",
                                           "feedback",
                                           "lockout",
                                           "attemptsExhausted",
                                           "reason"};
        if (json_parse(&doc, (const char *)data, size) != 0)
                return 0;
        if (doc.count < 1 || doc.count > JSON_MAX_TOKENS)
                abort();
        for (int i = 0; i < doc.count; i++) {
                char text[16];
                long number;
                if (doc.tokens[i].end > size || doc.tokens[i].next <= i || doc.tokens[i].next > doc.count)
                        abort();
                if (json_string(&doc, i, text, sizeof text) == 0) {
                        size_t length = strnlen(text, sizeof text);
                        if (length == sizeof text)
                                abort();
                        for (size_t k = 0; k < length; k++)
                                if (text[k] < 0x20 || text[k] > 0x7e)
                                        abort();
                }
                (void)json_integer(&doc, i, &number);
                if (doc.tokens[i].type == JSON_OBJECT)
                        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                                int member = json_member(&doc, i, keys[k]);
                                if (member >= doc.count || (member >= 0 && member <= i))
                                        abort();
                        }
        }
        return 0;
}
