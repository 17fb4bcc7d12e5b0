/*
 * floor: the C floor for localauthd-bench. A minimal single-threaded, level-triggered epoll
 * server on a Unix stream socket that answers every newline-terminated line with one fixed
 * response line of about the size of a canEvaluatePolicy answer. It parses nothing: whatever
 * it costs per request is the least any server on this machine can cost.
 *
 * Usage: floor SOCKET_PATH     (runs until SIGTERM/SIGINT; unlinks the path at start)
 * Build: cc -O2 -o floor bench/floor.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define MAX_FDS 65536

static const char response[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"canEvaluate\":true,\"biometryType\":\"faceID\"}}\n";

/* Per connection: how many answers are owed but not yet written (socket full). */
static unsigned owed[MAX_FDS];
/* Per connection: bytes of the first owed answer already written. */
static unsigned written[MAX_FDS];
static volatile sig_atomic_t running = 1;

static void on_signal(int sig) {
        (void)sig;
        running = 0;
}

/* Per connection: whether EPOLLOUT is being watched (changed only when it must be). */
static unsigned char armed[MAX_FDS];

static void set_events(int ep, int fd, unsigned events) {
        unsigned char want = (events & EPOLLOUT) != 0;
        if (armed[fd] == want)
                return;
        armed[fd] = want;
        struct epoll_event ev = {.events = events, .data.fd = fd};
        epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

static void drop(int ep, int fd) {
        epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
        owed[fd] = 0;
        written[fd] = 0;
        armed[fd] = 0;
        close(fd);
}

/* Writes owed answers (resuming a partly written one); returns -1 when the connection is gone. */
static int answer(int ep, int fd) {
        static char out[sizeof response * 512];
        const size_t one = sizeof response - 1;
        while (owed[fd] > 0) {
                unsigned n = owed[fd] > 512 ? 512 : owed[fd];
                for (unsigned i = 0; i < n; i++)
                        memcpy(out + i * one, response, one);
                size_t length = n * one - written[fd];
                ssize_t sent = send(fd, out + written[fd], length, MSG_NOSIGNAL | MSG_DONTWAIT);
                if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                        set_events(ep, fd, EPOLLIN | EPOLLOUT);
                        return 0;
                }
                if (sent < 0)
                        return -1;
                size_t done = written[fd] + (size_t)sent;
                owed[fd] -= (unsigned)(done / one);
                written[fd] = (unsigned)(done % one);
                if ((size_t)sent < length) {
                        set_events(ep, fd, EPOLLIN | EPOLLOUT);
                        return 0;
                }
        }
        set_events(ep, fd, EPOLLIN);
        return 0;
}

int main(int argc, char **argv) {
        if (argc != 2) {
                fprintf(stderr, "usage: floor SOCKET_PATH\n");
                return 2;
        }
        signal(SIGPIPE, SIG_IGN);
        signal(SIGTERM, on_signal);
        signal(SIGINT, on_signal);
        struct sockaddr_un addr = {.sun_family = AF_UNIX};
        if (strlen(argv[1]) >= sizeof addr.sun_path)
                return 2;
        strcpy(addr.sun_path, argv[1]);
        unlink(argv[1]);
        int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 1024) < 0) {
                perror("floor: listen");
                return 1;
        }
        int ep = epoll_create1(EPOLL_CLOEXEC);
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = listener};
        epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
        static char buffer[65536];
        struct epoll_event events[MAX_EVENTS];
        while (running) {
                int count = epoll_wait(ep, events, MAX_EVENTS, 200);
                for (int i = 0; i < count; i++) {
                        int fd = events[i].data.fd;
                        if (fd == listener) {
                                for (int k = 0; k < 64; k++) {
                                        int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                                        if (client < 0)
                                                break;
                                        if (client >= MAX_FDS) {
                                                close(client);
                                                continue;
                                        }
                                        struct epoll_event cev = {.events = EPOLLIN, .data.fd = client};
                                        epoll_ctl(ep, EPOLL_CTL_ADD, client, &cev);
                                }
                                continue;
                        }
                        if (events[i].events & EPOLLOUT) {
                                if (answer(ep, fd) < 0) {
                                        drop(ep, fd);
                                        continue;
                                }
                        }
                        if (!(events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                                continue;
                        ssize_t got = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
                        if (got < 0 && (errno == EAGAIN || errno == EINTR))
                                continue;
                        if (got <= 0) {
                                drop(ep, fd);
                                continue;
                        }
                        for (char *p = buffer, *end = buffer + got; (p = memchr(p, '\n', (size_t)(end - p))) != NULL;
                             p++)
                                owed[fd]++;
                        if (owed[fd] > 0 && answer(ep, fd) < 0)
                                drop(ep, fd);
                }
        }
        unlink(argv[1]);
        return 0;
}
