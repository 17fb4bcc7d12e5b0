/* daemon_link.c: see daemon_link.h. The socket is non-blocking from the start: the module never
 * waits on the daemon except in poll() with a deadline. */
#include "daemon_link.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Root, or the account named trusted_user. The account is looked up only for a peer that is not root:
 * a socket systemd activates is root's, and the first look-up of a process (NSS) costs ~0.5 ms. */
static int trusted_peer(uid_t uid, const char *trusted_user) {
        if (uid == 0)
                return 1;
        struct passwd *account = getpwnam(trusted_user);
        return account && account->pw_uid == uid;
}

int daemon_link_open(struct daemon_link *link, const char *path, const char *trusted_user) {
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        link->fd = -1;
        link->used = 0;
        link->discarding = 0;
        if (strlen(path) >= sizeof address.sun_path)
                return -ENAMETOOLONG;
        strcpy(address.sun_path, path);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
                return -errno;
        if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
                int r = -errno;
                close(fd);
                return r == -EINPROGRESS ? -EAGAIN : r;
        }
        /* Only the daemon may answer for a person: a socket served by anyone else is refused. */
        struct ucred peer;
        socklen_t size = sizeof peer;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) < 0 || !trusted_peer(peer.uid, trusted_user)) {
                close(fd);
                return -EPERM;
        }
        link->fd = fd;
        return 0;
}

int daemon_link_send(struct daemon_link *link, const char *lines, size_t length) {
        if (link->fd < 0 || length == 0 || length > DAEMON_SEND_MAX || lines[length - 1] != '\n')
                return -EINVAL;
        size_t sent = 0;
        int waits = 0;
        while (sent < length) {
                ssize_t n = send(link->fd, lines + sent, length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n > 0) {
                        sent += (size_t)n;
                        continue;
                }
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EAGAIN && waits++ < 10) {
                        struct pollfd p = {.fd = link->fd, .events = POLLOUT};
                        (void)poll(&p, 1, 10);
                        continue;
                }
                return n < 0 ? -errno : -EPIPE;
        }
        return 0;
}

int daemon_link_fill(struct daemon_link *link) {
        for (;;) {
                if (link->used == sizeof link->buffer) {
                        if (memchr(link->buffer, '\n', link->used))
                                return 0; /* whole lines are waiting to be taken first */
                        /* A line longer than any answer the module expects: drop it up to its newline. */
                        link->used = 0;
                        link->discarding = 1;
                }
                ssize_t n = recv(link->fd, link->buffer + link->used, sizeof link->buffer - link->used, MSG_DONTWAIT);
                if (n == 0)
                        return 1;
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return errno == EAGAIN ? 0 : -errno;
                }
                size_t start = link->used;
                link->used += (size_t)n;
                if (link->discarding) {
                        char *newline = memchr(link->buffer + start, '\n', link->used - start);
                        if (!newline) {
                                link->used = 0;
                                continue;
                        }
                        size_t rest = link->used - (size_t)(newline + 1 - link->buffer);
                        memmove(link->buffer, newline + 1, rest);
                        link->used = rest;
                        link->discarding = 0;
                }
        }
}

long daemon_link_next_line(struct daemon_link *link, char *line) {
        char *newline = memchr(link->buffer, '\n', link->used);
        if (!newline)
                return -1;
        size_t length = (size_t)(newline - link->buffer);
        memcpy(line, link->buffer, length);
        line[length] = '\0';
        memmove(link->buffer, newline + 1, link->used - length - 1);
        link->used -= length + 1;
        return (long)length;
}

void daemon_link_close(struct daemon_link *link) {
        if (link->fd >= 0)
                close(link->fd);
        link->fd = -1;
}
