/* json_reader.h: a small, bounded JSON reader for the daemon's answers.
 *
 * Every byte it reads comes from a socket and is treated as hostile: the input
 * length is bounded by the caller, the token table and the nesting depth are
 * fixed, nothing is allocated, and strings are copied out only into buffers of
 * a size the caller gives, with anything that is not printable ASCII replaced. */
#ifndef PAM_LOCALAUTHD_JSON_READER_H
#define PAM_LOCALAUTHD_JSON_READER_H

#include <stddef.h>

#define JSON_MAX_TOKENS 256
#define JSON_MAX_DEPTH 16

enum json_type { JSON_OBJECT, JSON_ARRAY, JSON_STRING, JSON_NUMBER, JSON_TRUE, JSON_FALSE, JSON_NULL };

/* One value of the document. Strings span the bytes between their quotes (escapes not yet decoded). */
struct json_token {
        enum json_type type;
        size_t start, end;
        int children; /* members of an object (keys and values both count) or elements of an array */
        int next;     /* index of the first token after this value's subtree */
};

/* A parsed document: the text it points into and its tokens in document order (index 0 is the root). */
struct json_document {
        const char *text;
        size_t length;
        struct json_token tokens[JSON_MAX_TOKENS];
        int count;
};

/* Parses text[0..length) as exactly one JSON value (surrounding whitespace allowed).
 * Returns 0, or -1 for invalid, too deep or too large input. */
int json_parse(struct json_document *doc, const char *text, size_t length);

/* The value of member `key` of the object at token `object`, or -1. */
int json_member(const struct json_document *doc, int object, const char *key);

/* Copies the string at token `index` into out (size > 0), decoded and sanitized: bytes outside printable
 * ASCII and \u escapes beyond it become '?'. Truncates to size-1. Returns 0, or -1 if not a string. */
int json_string(const struct json_document *doc, int index, char *out, size_t size);

/* The integer at token `index` (no fraction or exponent, within ±2^31). Returns 0, or -1. */
int json_integer(const struct json_document *doc, int index, long *out);

/* 1 if the value at `index` is the literal true, else 0. */
int json_is_true(const struct json_document *doc, int index);

#endif
