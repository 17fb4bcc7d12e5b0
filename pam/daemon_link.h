/* daemon_link.h: the module's connection to localauthd (JSON-RPC 2.0, one object per line). */
#ifndef PAM_LOCALAUTHD_DAEMON_LINK_H
#define PAM_LOCALAUTHD_DAEMON_LINK_H

#include <stddef.h>
#include <sys/types.h>

#define DAEMON_LINE_MAX 16384
#define DAEMON_SEND_MAX 4096

/* A connected socket and the bytes read from it that do not yet form a whole line. */
struct daemon_link {
        int fd;
        char buffer[DAEMON_LINE_MAX];
        size_t used;
        int discarding; /* skipping the rest of a line longer than the buffer */
};

/* Connects without waiting (a missing socket, a refused or a full backlog fails at once) and checks that
 * the peer (SO_PEERCRED) is root or the account trusted_user. Returns 0, or -errno (-EPERM: an untrusted
 * peer). */
int daemon_link_open(struct daemon_link *link, const char *path, const char *trusted_user);

/* Sends whole lines (each ends in a newline; at most DAEMON_SEND_MAX bytes in all) in one write when the
 * socket takes them; never blocks for long, never raises SIGPIPE. Returns 0 or -errno. */
int daemon_link_send(struct daemon_link *link, const char *line, size_t length);

/* Reads what is there without blocking. Returns 1 when the peer closed, 0 when more may come, -errno. */
int daemon_link_fill(struct daemon_link *link);

/* Takes the next whole line out of the buffer into line (size DAEMON_LINE_MAX), without its newline.
 * Returns its length, or -1 when no whole line is buffered. */
long daemon_link_next_line(struct daemon_link *link, char *line);

/* Closes the socket. */
void daemon_link_close(struct daemon_link *link);

#endif
