#define _GNU_SOURCE
#include "CLocalAuthSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <pthread.h>

int las_peer_credentials_get(int fd, las_peer_credentials *out) {
        struct ucred cred;
        socklen_t len = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
                return -errno;
        out->pid = cred.pid;
        out->uid = cred.uid;
        out->gid = cred.gid;
        return 0;
}

int las_peer_groups(int fd, uint32_t *groups, int capacity) {
        socklen_t len = (socklen_t)(capacity * sizeof(gid_t));
        if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
                return -errno;
        return (int)(len / sizeof(gid_t));
}

int las_accept(int listen_fd) {
        int fd;
        do {
                fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        } while (fd < 0 && errno == EINTR);
        return fd < 0 ? -errno : fd;
}

static int fill_address(struct sockaddr_un *addr, const char *path) {
        memset(addr, 0, sizeof *addr);
        addr->sun_family = AF_UNIX;
        if (strlen(path) >= sizeof addr->sun_path)
                return -ENAMETOOLONG;
        strcpy(addr->sun_path, path);
        return 0;
}

/* A listening socket at path; with set_mode, its mode is set before bind(2) (Linux honours it). */
static int listen_unix(const char *path, int backlog, int set_mode, mode_t mode) {
        struct sockaddr_un addr;
        int rc = fill_address(&addr, path);
        if (rc < 0)
                return rc;
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if ((set_mode && fchmod(fd, mode) < 0) || bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
            listen(fd, backlog) < 0) {
                int e = errno;
                close(fd);
                return -e;
        }
        return fd;
}

int las_listen_unix(const char *path, int backlog) {
        return listen_unix(path, backlog, 0, 0);
}

int las_listen_unix_mode(const char *path, int backlog, unsigned mode) {
        return listen_unix(path, backlog, 1, (mode_t)mode);
}

int las_connect_unix(const char *path) {
        struct sockaddr_un addr;
        int rc = fill_address(&addr, path);
        if (rc < 0)
                return rc;
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        while (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
                if (errno == EINTR)
                        continue;
                int e = errno;
                close(fd);
                return -e;
        }
        return fd;
}

int las_epoll_create(void) {
        int fd = epoll_create1(EPOLL_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

int las_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
        struct epoll_event ev;
        memset(&ev, 0, sizeof ev);
        ev.events = events;
        ev.data.fd = fd;
        return epoll_ctl(epfd, op, fd, &ev) < 0 ? -errno : 0;
}

int las_epoll_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_ms) {
        struct epoll_event evs[256];
        if (capacity > 256)
                capacity = 256;
        int n;
        do {
                n = epoll_wait(epfd, evs, capacity, timeout_ms);
        } while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        for (int i = 0; i < n; i++) {
                fds[i] = evs[i].data.fd;
                events[i] = evs[i].events;
        }
        return n;
}

int las_eventfd(void) {
        int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

int las_eventfd_signal(int fd) {
        uint64_t one = 1;
        ssize_t n;
        do {
                n = write(fd, &one, sizeof one);
        } while (n < 0 && errno == EINTR);
        return (n < 0 && errno != EAGAIN) ? -errno : 0;
}

int las_eventfd_drain(int fd) {
        uint64_t value;
        ssize_t n;
        do {
                n = read(fd, &value, sizeof value);
        } while (n < 0 && errno == EINTR);
        return (n < 0 && errno != EAGAIN) ? -errno : 0;
}

ssize_t las_send(int fd, const void *buffer, size_t count) {
        ssize_t n;
        do {
                n = send(fd, buffer, count, MSG_NOSIGNAL | MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        return n < 0 ? -errno : n;
}

ssize_t las_recv(int fd, void *buffer, size_t count) {
        ssize_t n;
        do {
                n = recv(fd, buffer, count, MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        return n < 0 ? -errno : n;
}

int las_set_nonblocking(int fd, int on) {
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0)
                return -errno;
        flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
        return fcntl(fd, F_SETFL, flags) < 0 ? -errno : 0;
}

void las_ignore_sigpipe(void) {
        signal(SIGPIPE, SIG_IGN);
}

void las_block_signals(const int *signals, int count) {
        sigset_t set;
        sigemptyset(&set);
        for (int i = 0; i < count; i++)
                sigaddset(&set, signals[i]);
        pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int las_signalfd(const int *signals, int count) {
        sigset_t set;
        sigemptyset(&set);
        for (int i = 0; i < count; i++)
                sigaddset(&set, signals[i]);
        int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

int las_signalfd_read(int fd) {
        struct signalfd_siginfo info;
        ssize_t n;
        do {
                n = read(fd, &info, sizeof info);
        } while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        if (n != sizeof info)
                return -EIO;
        return (int)info.ssi_signo;
}
