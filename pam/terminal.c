/* terminal.c: see terminal.h. */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int terminal_open(struct terminal *terminal) {
        terminal->fd = -1;
        int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -1;
        struct termios raw;
        if (!isatty(fd) || tcgetpgrp(fd) != getpgrp() || tcgetattr(fd, &terminal->saved) < 0) {
                close(fd);
                return -1;
        }
        raw = terminal->saved;
        raw.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
        raw.c_iflag |= ICRNL;
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        /* TCSANOW keeps what the person already typed ahead. */
        if (tcsetattr(fd, TCSANOW, &raw) < 0) {
                close(fd);
                return -1;
        }
        terminal->fd = fd;
        return 0;
}

void terminal_write(const struct terminal *terminal, const char *text) {
        size_t length = strlen(text);
        while (terminal->fd >= 0 && length > 0) {
                ssize_t n = write(terminal->fd, text, length);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return;
                text += n;
                length -= (size_t)n;
        }
}

void terminal_close(struct terminal *terminal) {
        if (terminal->fd < 0)
                return;
        (void)tcsetattr(terminal->fd, TCSANOW, &terminal->saved);
        close(terminal->fd);
        terminal->fd = -1;
}
