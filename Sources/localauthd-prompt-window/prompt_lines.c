/* prompt_lines.c: the window process's line protocol (prompt_lines.h). */
#include "prompt_lines.h"
#include "CPromptWindow.h"
#include <errno.h>
#include <glib-unix.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The longest line taken: ten texts, each cut by PromptText (at most 512 scalars, escaped). */
#define LINE_LIMIT 65536
/* The most bytes of a secret sent (the daemon's limit for a password). */
#define SECRET_LIMIT 512

static GHashTable *windows; /* id → prompt_window */
static char input[LINE_LIMIT];
static size_t input_length;

/* write(2) of all of bytes, retrying EINTR; a failure (the agent gone) is left to the input's end. */
static void write_all(const char *bytes, size_t length) {
        while (length > 0) {
                ssize_t written = write(STDOUT_FILENO, bytes, length);
                if (written < 0 && errno == EINTR)
                        continue;
                if (written <= 0)
                        return;
                bytes += written;
                length -= (size_t)written;
        }
}

/* What the person did: "cancel ID", "fallback ID", or "secret ID LENGTH" then the secret's LENGTH
 * bytes (none when LENGTH is over SECRET_LIMIT: the agent refuses it), each copy zeroed. */
static void on_action(void *context, unsigned long id, int action) {
        (void)context;
        char header[64];
        int length;
        switch (action) {
        case PROMPT_WINDOW_CANCEL:
                length = snprintf(header, sizeof header, "cancel\t%lu\n", id);
                write_all(header, (size_t)length);
                break;
        case PROMPT_WINDOW_FALLBACK:
                length = snprintf(header, sizeof header, "fallback\t%lu\n", id);
                write_all(header, (size_t)length);
                break;
        case PROMPT_WINDOW_SUBMIT: {
                char secret[SECRET_LIMIT];
                prompt_window *window = g_hash_table_lookup(windows, GUINT_TO_POINTER(id));
                if (!window)
                        return;
                size_t typed = prompt_window_take_secret(window, secret, sizeof secret);
                if (typed == 0)
                        return;
                length = snprintf(header, sizeof header, "secret\t%lu\t%zu\n", id, typed);
                write_all(header, (size_t)length);
                if (typed <= sizeof secret)
                        write_all(secret, typed);
                explicit_bzero(secret, sizeof secret);
                break;
        }
        default: break;
        }
}

/* Splits line at tabs into at most capacity fields; returns how many. */
static size_t split(char *line, char **fields, size_t capacity) {
        size_t count = 0;
        for (char *field = line; field && count < capacity; count++) {
                fields[count] = field;
                field = strchr(field, '\t');
                if (field)
                        *field++ = '\0';
        }
        return count;
}

static int parse_id(const char *text, unsigned long *id) {
        char *end;
        errno = 0;
        *id = strtoul(text, &end, 10);
        return (errno || end == text || *end) ? -1 : 0;
}

static const char *or_null(const char *text) {
        return *text ? text : NULL;
}

int prompt_lines_apply(char *line) {
        char *fields[12];
        size_t count = split(line, fields, 12);
        unsigned long id;
        if (count < 2 || parse_id(fields[1], &id) != 0)
                return -1;
        if (strcmp(fields[0], "close") == 0 && count == 2) {
                prompt_window *window = g_hash_table_lookup(windows, GUINT_TO_POINTER(id));
                if (window) {
                        g_hash_table_remove(windows, GUINT_TO_POINTER(id));
                        prompt_window_close(window);
                }
                return 0;
        }
        if (strcmp(fields[0], "window") != 0 || count != 11)
                return -1;
        prompt_window *window = g_hash_table_lookup(windows, GUINT_TO_POINTER(id));
        gboolean fresh = window == NULL;
        if (fresh) {
                window = prompt_window_new(id, on_action, NULL);
                if (!window)
                        return -1;
                g_hash_table_insert(windows, GUINT_TO_POINTER(id), window);
        }
        prompt_window_set_texts(window, fields[2], fields[3], fields[4], fields[5], or_null(fields[6]), fields[7]);
        prompt_window_set_buttons(window, fields[8], or_null(fields[9]));
        prompt_window_set_secret(window, or_null(fields[10]));
        /* The one present(): a window is raised when it first shows, never again (it never takes
         * the focus back from another window). */
        if (fresh)
                prompt_window_present(window);
        return 0;
}

static gboolean on_input(gint fd, GIOCondition condition, gpointer data) {
        (void)condition;
        (void)data;
        ssize_t got = read(fd, input + input_length, sizeof input - input_length);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
                return G_SOURCE_CONTINUE;
        if (got <= 0) {
                prompt_loop_quit();
                return G_SOURCE_REMOVE;
        }
        input_length += (size_t)got;
        char *start = input, *newline;
        while ((newline = memchr(start, '\n', input_length - (size_t)(start - input)))) {
                *newline = '\0';
                if (prompt_lines_apply(start) != 0) {
                        prompt_loop_quit();
                        return G_SOURCE_REMOVE;
                }
                start = newline + 1;
        }
        input_length -= (size_t)(start - input);
        memmove(input, start, input_length);
        if (input_length == sizeof input) {
                prompt_loop_quit();
                return G_SOURCE_REMOVE;
        }
        return G_SOURCE_CONTINUE;
}

void prompt_lines_follow_input(void) {
        windows = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, NULL);
}
