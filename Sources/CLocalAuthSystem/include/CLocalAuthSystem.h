#ifndef C_LOCAL_AUTH_SYSTEM_H
#define C_LOCAL_AUTH_SYSTEM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>

/// Peer credentials of a Unix socket, from SO_PEERCRED.
typedef struct {
        int32_t pid;
        uint32_t uid;
        uint32_t gid;
} las_peer_credentials;

/// getsockopt(SO_PEERCRED); returns 0 or -errno.
int las_peer_credentials_get(int fd, las_peer_credentials *out);
/// getsockopt(SO_PEERGROUPS): the peer's supplementary groups; returns the count (<= capacity) or -errno.
int las_peer_groups(int fd, uint32_t *groups, int capacity);
/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; returns the fd or -errno.
int las_accept(int listen_fd);
/// socket+bind+listen on a Unix stream path (non-blocking, close-on-exec); returns the fd or -errno.
int las_listen_unix(const char *path, int backlog);
/// las_listen_unix, the socket file made with at most `mode` (fchmod(2) on the socket before bind(2):
/// Linux gives the file that mode less the umask), without touching the process's umask; returns the
/// fd or -errno.
int las_listen_unix_mode(const char *path, int backlog, unsigned mode);
/// socket+connect to a Unix stream path (blocking, close-on-exec); returns the fd or -errno.
int las_connect_unix(const char *path);
/// epoll_create1(EPOLL_CLOEXEC); returns the fd or -errno.
int las_epoll_create(void);
/// epoll_ctl(op, fd) with the given event mask and the fd as its data; returns 0 or -errno.
int las_epoll_ctl(int epfd, int op, int fd, uint32_t events);
/// epoll_wait(2) filling parallel arrays of fds and event masks; returns the count or -errno.
int las_epoll_wait(int epfd, int *fds, uint32_t *events, int capacity, int timeout_ms);
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); returns the fd or -errno.
int las_eventfd(void);
/// Adds one to an eventfd; returns 0 or -errno.
int las_eventfd_signal(int fd);
/// Drains an eventfd; returns 0 or -errno.
int las_eventfd_drain(int fd);
/// send(2) with MSG_NOSIGNAL | MSG_DONTWAIT; returns bytes sent or -errno.
ssize_t las_send(int fd, const void *buffer, size_t count);
/// recv(2) non-blocking; returns bytes read, 0 at end of stream, or -errno.
ssize_t las_recv(int fd, void *buffer, size_t count);
/// Sets or clears O_NONBLOCK; returns 0 or -errno.
int las_set_nonblocking(int fd, int on);
/// Ignores SIGPIPE for the whole process.
void las_ignore_sigpipe(void);
/// Blocks the given signals in the calling thread (inherited by threads it creates).
void las_block_signals(const int *signals, int count);
/// signalfd(2) for the given signals (non-blocking, close-on-exec); returns the fd or -errno.
int las_signalfd(const int *signals, int count);
/// Reads one signal number from a signalfd; returns it, or -errno.
int las_signalfd_read(int fd);
/// The EPOLL* constants, which Swift imports with awkward types.
enum {
        LAS_EPOLLIN = EPOLLIN,
        LAS_EPOLLOUT = EPOLLOUT,
        LAS_EPOLLERR = EPOLLERR,
        LAS_EPOLLHUP = EPOLLHUP,
        LAS_EPOLLRDHUP = EPOLLRDHUP,
        LAS_EPOLL_CTL_ADD = EPOLL_CTL_ADD,
        LAS_EPOLL_CTL_MOD = EPOLL_CTL_MOD,
        LAS_EPOLL_CTL_DEL = EPOLL_CTL_DEL,
};
/* Walks a directory path component by component, creating missing ones (0755), and returns an
 * O_PATH descriptor of the last one, or -errno with `problem` filled in. Every component must be a
 * directory owned by root or `uid`, writable by others only with the sticky bit, and any symbolic
 * link on the way must be owned by root or `uid`: nobody else can swap what the socket lands in. */
int las_open_trusted_directory(const char *path, unsigned uid, char *problem, size_t size);

/* 0 when `name` does not exist in `dir`, 1 when it is a socket, -EEXIST for anything else, or -errno. */
int las_socket_probe_at(int dir, const char *name);

/* unlinkat(dir, name, 0), returning 0 or -errno. */
int las_unlink_at(int dir, const char *name);

/* Sets a socket file's mode without following a symbolic link; 0 or -errno. */
int las_chmod_socket_at(int dir, const char *name, unsigned mode);

/// Opens a new pseudo-terminal (posix_openpt, grantpt, unlockpt, ptsname_r); returns the master fd and
/// writes the slave's path into `name`, or returns -errno. Test support.
int las_open_pseudo_terminal(char *name, size_t name_size);
#endif
