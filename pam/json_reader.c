/* json_reader.c: see json_reader.h. Recursive descent bounded by JSON_MAX_DEPTH;
 * tokens bounded by JSON_MAX_TOKENS; never allocates. */
#include "json_reader.h"

#include <string.h>

struct cursor {
        struct json_document *doc;
        size_t at;
};

static void skip_space(struct cursor *c) {
        while (c->at < c->doc->length) {
                char ch = c->doc->text[c->at];
                if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
                        return;
                c->at++;
        }
}

static int is_hex(char ch) {
        return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static int new_token(struct cursor *c, enum json_type type) {
        struct json_document *doc = c->doc;
        if (doc->count >= JSON_MAX_TOKENS)
                return -1;
        int index = doc->count++;
        doc->tokens[index] = (struct json_token){.type = type, .start = c->at, .end = c->at, .next = index + 1};
        return index;
}

static int parse_value(struct cursor *c, int depth);

static int parse_string(struct cursor *c) {
        const char *s = c->doc->text;
        size_t n = c->doc->length;
        if (c->at >= n || s[c->at] != '"')
                return -1;
        c->at++;
        int index = new_token(c, JSON_STRING);
        if (index < 0)
                return -1;
        while (c->at < n) {
                unsigned char ch = (unsigned char)s[c->at];
                if (ch == '"') {
                        c->doc->tokens[index].end = c->at;
                        c->at++;
                        c->doc->tokens[index].next = c->doc->count;
                        return index;
                }
                if (ch < 0x20)
                        return -1;
                if (ch == '\\') {
                        if (c->at + 1 >= n)
                                return -1;
                        char e = s[c->at + 1];
                        if (e == 'u') {
                                if (c->at + 5 >= n)
                                        return -1;
                                for (int i = 2; i < 6; i++)
                                        if (!is_hex(s[c->at + i]))
                                                return -1;
                                c->at += 6;
                                continue;
                        }
                        if (!strchr("\"\\/bfnrt", e) || e == '\0')
                                return -1;
                        c->at += 2;
                        continue;
                }
                c->at++;
        }
        return -1;
}

static int parse_number(struct cursor *c) {
        const char *s = c->doc->text;
        size_t n = c->doc->length;
        int index = new_token(c, JSON_NUMBER);
        if (index < 0)
                return -1;
        if (c->at < n && s[c->at] == '-')
                c->at++;
        if (c->at >= n || s[c->at] < '0' || s[c->at] > '9')
                return -1;
        if (s[c->at] == '0')
                c->at++;
        else
                while (c->at < n && s[c->at] >= '0' && s[c->at] <= '9')
                        c->at++;
        if (c->at < n && s[c->at] == '.') {
                c->at++;
                if (c->at >= n || s[c->at] < '0' || s[c->at] > '9')
                        return -1;
                while (c->at < n && s[c->at] >= '0' && s[c->at] <= '9')
                        c->at++;
        }
        if (c->at < n && (s[c->at] == 'e' || s[c->at] == 'E')) {
                c->at++;
                if (c->at < n && (s[c->at] == '+' || s[c->at] == '-'))
                        c->at++;
                if (c->at >= n || s[c->at] < '0' || s[c->at] > '9')
                        return -1;
                while (c->at < n && s[c->at] >= '0' && s[c->at] <= '9')
                        c->at++;
        }
        c->doc->tokens[index].end = c->at;
        return index;
}

static int parse_literal(struct cursor *c, const char *word, enum json_type type) {
        size_t len = strlen(word);
        if (c->doc->length - c->at < len || memcmp(c->doc->text + c->at, word, len) != 0)
                return -1;
        int index = new_token(c, type);
        if (index < 0)
                return -1;
        c->at += len;
        c->doc->tokens[index].end = c->at;
        return index;
}

static int parse_container(struct cursor *c, int depth, int object) {
        if (depth >= JSON_MAX_DEPTH)
                return -1;
        int index = new_token(c, object ? JSON_OBJECT : JSON_ARRAY);
        if (index < 0)
                return -1;
        char close = object ? '}' : ']';
        c->at++;
        skip_space(c);
        if (c->at < c->doc->length && c->doc->text[c->at] == close) {
                c->at++;
        } else {
                for (;;) {
                        skip_space(c);
                        if (object) {
                                if (parse_string(c) < 0)
                                        return -1;
                                skip_space(c);
                                if (c->at >= c->doc->length || c->doc->text[c->at] != ':')
                                        return -1;
                                c->at++;
                                skip_space(c);
                                c->doc->tokens[index].children++;
                        }
                        if (parse_value(c, depth + 1) < 0)
                                return -1;
                        c->doc->tokens[index].children++;
                        skip_space(c);
                        if (c->at >= c->doc->length)
                                return -1;
                        char ch = c->doc->text[c->at++];
                        if (ch == close)
                                break;
                        if (ch != ',')
                                return -1;
                }
        }
        c->doc->tokens[index].end = c->at;
        c->doc->tokens[index].next = c->doc->count;
        return index;
}

static int parse_value(struct cursor *c, int depth) {
        if (c->at >= c->doc->length)
                return -1;
        switch (c->doc->text[c->at]) {
        case '{': return parse_container(c, depth, 1);
        case '[': return parse_container(c, depth, 0);
        case '"': return parse_string(c);
        case 't': return parse_literal(c, "true", JSON_TRUE);
        case 'f': return parse_literal(c, "false", JSON_FALSE);
        case 'n': return parse_literal(c, "null", JSON_NULL);
        default: return parse_number(c);
        }
}

int json_parse(struct json_document *doc, const char *text, size_t length) {
        doc->text = text;
        doc->length = length;
        doc->count = 0;
        struct cursor c = {.doc = doc, .at = 0};
        skip_space(&c);
        if (parse_value(&c, 0) < 0)
                return -1;
        skip_space(&c);
        return c.at == length ? 0 : -1;
}

static int hex_value(char ch) {
        if (ch >= '0' && ch <= '9')
                return ch - '0';
        if (ch >= 'a' && ch <= 'f')
                return ch - 'a' + 10;
        return ch - 'A' + 10;
}

int json_string(const struct json_document *doc, int index, char *out, size_t size) {
        if (index < 0 || index >= doc->count || doc->tokens[index].type != JSON_STRING || size == 0)
                return -1;
        const struct json_token *t = &doc->tokens[index];
        size_t o = 0;
        for (size_t i = t->start; i < t->end && o + 1 < size;) {
                unsigned char ch = (unsigned char)doc->text[i];
                if (ch == '\\') {
                        char e = doc->text[i + 1];
                        if (e == 'u') {
                                int code = 0;
                                for (int k = 2; k < 6; k++)
                                        code = code * 16 + hex_value(doc->text[i + k]);
                                out[o++] = (code >= 0x20 && code < 0x7f) ? (char)code : '?';
                                i += 6;
                                continue;
                        }
                        switch (e) {
                        case '"': out[o++] = '"'; break;
                        case '\\': out[o++] = '\\'; break;
                        case '/': out[o++] = '/'; break;
                        default: out[o++] = '?'; break; /* \b \f \n \r \t: control characters */
                        }
                        i += 2;
                        continue;
                }
                out[o++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
                i++;
        }
        out[o] = '\0';
        return 0;
}

int json_member(const struct json_document *doc, int object, const char *key) {
        if (object < 0 || object >= doc->count || doc->tokens[object].type != JSON_OBJECT)
                return -1;
        char name[64];
        int i = object + 1;
        for (int m = 0; m + 1 < doc->tokens[object].children; m += 2) {
                if (i + 1 >= doc->count)
                        return -1;
                if (json_string(doc, i, name, sizeof name) == 0 && strcmp(name, key) == 0 &&
                    doc->tokens[i].end - doc->tokens[i].start < sizeof name)
                        return i + 1;
                i = doc->tokens[i + 1].next;
        }
        return -1;
}

int json_integer(const struct json_document *doc, int index, long *out) {
        if (index < 0 || index >= doc->count || doc->tokens[index].type != JSON_NUMBER)
                return -1;
        const struct json_token *t = &doc->tokens[index];
        size_t i = t->start;
        int negative = 0;
        if (i < t->end && doc->text[i] == '-') {
                negative = 1;
                i++;
        }
        long value = 0;
        if (i >= t->end)
                return -1;
        for (; i < t->end; i++) {
                char ch = doc->text[i];
                if (ch < '0' || ch > '9')
                        return -1;
                value = value * 10 + (ch - '0');
                if (value > 2147483647L)
                        return -1;
        }
        *out = negative ? -value : value;
        return 0;
}

int json_is_true(const struct json_document *doc, int index) {
        return index >= 0 && index < doc->count && doc->tokens[index].type == JSON_TRUE;
}
