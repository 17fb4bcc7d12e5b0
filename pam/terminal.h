/* terminal.h: the controlling terminal, read key by key with echo off while the sensor waits. */
#ifndef PAM_LOCALAUTHD_TERMINAL_H
#define PAM_LOCALAUTHD_TERMINAL_H

#include <termios.h>

/* /dev/tty in non-canonical mode without echo or signals (Ctrl-C arrives as a byte), and its saved mode. */
struct terminal {
        int fd;
        struct termios saved;
};

/* Opens the controlling terminal when there is one and this process is in its foreground (so reading
 * never stops the process with SIGTTIN), and switches it to key-by-key input. Returns 0, or -1 (no
 * terminal to use; nothing changed). */
int terminal_open(struct terminal *terminal);

/* Writes text to the terminal as it is (the caller passes only its own or sanitized text). */
void terminal_write(const struct terminal *terminal, const char *text);

/* Restores the saved mode and closes the terminal; safe to call twice. */
void terminal_close(struct terminal *terminal);

#endif
