/* The desktop prompt's window in GTK 4 (its macros, casts and varargs signals are C's), drawn from
 * the values DesktopPrompt decides: the window never decides what to send. Everything here runs on
 * the GTK main loop's thread, except prompt_loop_call_soon, which any thread may call. */
#ifndef CPROMPTWINDOW_H
#define CPROMPTWINDOW_H

#include <stddef.h>

/* What the person did in a window. */
enum prompt_window_action {
        PROMPT_WINDOW_CANCEL = 0,   /* Cancel, Escape, or the window manager's close */
        PROMPT_WINDOW_FALLBACK = 1, /* the fallback button */
        PROMPT_WINDOW_SUBMIT = 2,   /* Enter in the secret field */
};

/* Called on the loop's thread with the window's id and the action. */
typedef void (*prompt_window_handler)(void *context, unsigned long window, int action);

/* One prompt window (opaque). */
typedef struct prompt_window prompt_window;

/* gtk_init_check: 0 when a display (X11 or Wayland) is open, -1 when none can be. */
int prompt_display_open(void);

/* A new window, not yet shown, reporting the person's actions to handler(context, id, action). */
prompt_window *prompt_window_new(unsigned long id, prompt_window_handler handler, void *context);
/* The texts: the title bar, the heading (who asks), the requester's facts, the reason, the SSH key that
 * signs (NULL: the line is hidden), the status. */
void prompt_window_set_texts(prompt_window *window, const char *title, const char *heading, const char *requester,
                             const char *reason, const char *signing_key, const char *status);
/* The buttons: Cancel's title, and the fallback button's (NULL: hidden). */
void prompt_window_set_buttons(prompt_window *window, const char *cancel_title, const char *fallback_title);
/* The secret field (echo off) with its placeholder ("Passcode"), or NULL to hide it. */
void prompt_window_set_secret(prompt_window *window, const char *placeholder);
/* Copies the typed secret into buffer (up to capacity bytes) and empties the field, whose old buffer is
 * zeroed as it is released; returns the secret's full length in bytes (more than capacity: nothing
 * was copied). */
size_t prompt_window_take_secret(prompt_window *window, char *buffer, size_t capacity);
/* Shows the window for the first time (gtk_window_present): the one call that may give it focus. */
void prompt_window_present(prompt_window *window);
/* Destroys the window and frees it. */
void prompt_window_close(prompt_window *window);

/* Runs the GTK main loop until prompt_loop_quit, or SIGTERM, SIGINT or SIGHUP. */
void prompt_loop_run(void);
/* Ends prompt_loop_run. */
void prompt_loop_quit(void);
/* Runs work(data) once on the loop's thread (g_idle_add: safe from any thread). */
void prompt_loop_call_soon(void (*work)(void *data), void *data);

#endif
