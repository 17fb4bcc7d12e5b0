/* login_locality.c: whether a login before its session exists is a person at this machine (the module
 * line's `login` option: login on a virtual terminal, a display manager's worker). Nothing the caller
 * says makes it local: the terminal must be the caller's controlling terminal (the kernel) and the
 * virtual terminal on screen (the kernel's active VT), or the seat's active session a local greeter
 * (logind). A remote host, a pseudo-terminal (ssh, telnet, a terminal emulator) or a caller with
 * neither a virtual terminal nor a seat steps aside. */
#include "pam_localauthd.h"

#include <security/pam_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-login.h>

/* The number N of a virtual terminal's name, "ttyN" or "/dev/ttyN" with 1 <= N <= 63; 0 otherwise. */
int virtual_terminal_number(const char *tty) {
        if (!tty)
                return 0;
        if (strncmp(tty, "/dev/", 5) == 0)
                tty += 5;
        if (strncmp(tty, "tty", 3) != 0 || tty[3] < '1' || tty[3] > '9')
                return 0;
        char *end = NULL;
        long number = strtol(tty + 3, &end, 10);
        return end && *end == '\0' && number >= 1 && number <= 63 ? (int)number : 0;
}

/* The caller's controlling terminal (field 7 of /proc/self/stat, the kernel's word); 0 when none. */
static unsigned long controlling_terminal(void) {
        char line[1024];
        FILE *stat_file = fopen("/proc/self/stat", "re");
        if (!stat_file)
                return 0;
        size_t length = fread(line, 1, sizeof line - 1, stat_file);
        fclose(stat_file);
        line[length] = '\0';
        /* "pid (comm) state ppid pgrp session tty_nr ...": comm may hold spaces and parentheses. */
        const char *after = strrchr(line, ')');
        unsigned long tty = 0;
        if (!after || sscanf(after + 1, " %*c %*d %*d %*d %lu", &tty) != 1)
                return 0;
        return tty;
}

/* The kernel's active virtual terminal ("ttyN" in /sys/class/tty/tty0/active); 0 without VTs. */
static int active_virtual_terminal(void) {
        char name[32] = "";
        FILE *active = fopen("/sys/class/tty/tty0/active", "re");
        if (!active)
                return 0;
        if (!fgets(name, sizeof name, active))
                name[0] = '\0';
        fclose(active);
        name[strcspn(name, "\n")] = '\0';
        return virtual_terminal_number(name);
}

/* A login on virtual terminal N: the caller's controlling terminal is /dev/ttyN, on screen. */
static const char *terminal_refusal(int number, char *detail, size_t size) {
        char path[32];
        struct stat device;
        snprintf(path, sizeof path, "/dev/tty%d", number);
        unsigned long own = controlling_terminal();
        if (stat(path, &device) != 0 || !S_ISCHR(device.st_mode) || own == 0 || (unsigned long)device.st_rdev != own) {
                snprintf(detail, size, "PAM_TTY names %s, which is not the caller's controlling terminal", path);
                return "notControllingTerminal";
        }
        int active = active_virtual_terminal();
        if (active != number) {
                if (active == 0)
                        snprintf(detail, size, "PAM_TTY names %s, but the kernel has no active virtual terminal", path);
                else
                        snprintf(detail, size, "%s is not the virtual terminal on screen (tty%d is)", path, active);
                return "inactiveTerminal";
        }
        return NULL;
}

/* A display manager's login: the seat's active session is a local greeter (someone is at its screen). */
static const char *greeter_refusal(const char *seat, char *detail, size_t size) {
        char *session = NULL, *class = NULL;
        const char *reason = NULL;
        if (sd_seat_get_active(seat, &session, NULL) < 0 || !session) {
                snprintf(detail, size, "seat %.32s has no active session", seat);
                reason = "noGreeter";
        } else if (sd_session_get_class(session, &class) < 0 || !class || strcmp(class, "greeter") != 0) {
                snprintf(detail, size, "the active session %s of seat %.32s is not a greeter", session, seat);
                reason = "noGreeter";
        } else if (sd_session_is_remote(session) != 0) {
                snprintf(detail, size, "the greeter session %s is remote", session);
                reason = "remoteSession";
        }
        free(session);
        free(class);
        return reason;
}

const char *login_refusal(pam_handle_t *pamh, char *detail, size_t size) {
        const char *tty = NULL;
        (void)pam_get_item(pamh, PAM_TTY, (const void **)&tty);
        int number = virtual_terminal_number(tty);
        if (number > 0)
                return terminal_refusal(number, detail, size);
        /* A display manager names its seat (XDG_SEAT, in the PAM environment or its own). */
        const char *seat = pam_getenv(pamh, "XDG_SEAT");
        if (!seat || !*seat)
                seat = getenv("XDG_SEAT");
        if (tty && (strncmp(tty, "pts/", 4) == 0 || strncmp(tty, "/dev/pts/", 9) == 0)) {
                snprintf(detail, size, "PAM_TTY %.40s is a pseudo-terminal (ssh, telnet, an emulator)", tty);
                return "remoteTerminal";
        }
        if (seat && *seat && strlen(seat) < 64)
                return greeter_refusal(seat, detail, size);
        snprintf(detail, size, "PAM_TTY %.40s is no virtual terminal and no seat is named",
                 tty && *tty ? tty : "(none)");
        return "noSeat";
}
