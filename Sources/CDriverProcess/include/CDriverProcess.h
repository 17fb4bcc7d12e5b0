#ifndef C_DRIVER_PROCESS_H
#define C_DRIVER_PROCESS_H
#include <stdint.h>
#include <sys/types.h>

/// A started driver: its pid and the daemon's ends of its stdin, stdout and stderr pipes
/// (close-on-exec; stdin non-blocking so a driver that stops reading cannot block the daemon).
typedef struct {
        int32_t pid;
        int32_t stdin_fd;
        int32_t stdout_fd;
        int32_t stderr_fd;
} ldp_child;

/// posix_spawn of argv[0] with argv (NULL-terminated) in its own process group, default signal
/// mask and dispositions, and the three pipes; returns 0 or -errno.
int ldp_spawn(char *const argv[], ldp_child *out);
/// poll(2) on up to three descriptors for input; fills `ready` with the revents; returns the count or -errno.
int ldp_poll_input(const int *fds, short *ready, int count, int timeout_ms);
/// write(2), returning bytes written or -errno (EAGAIN when the pipe is full, EPIPE when nobody
/// reads it any more, without raising SIGPIPE).
ssize_t ldp_write(int fd, const void *buffer, size_t count);
/// read(2), returning bytes read, 0 at end of file, or -errno.
ssize_t ldp_read(int fd, void *buffer, size_t count);
/// waitpid(pid, WNOHANG): 0 while running; 1 and the status word once reaped; -errno.
int ldp_reap(int32_t pid, int *status);
/// Whether a wait status is a normal exit, and its code; else the terminating signal.
int ldp_exited(int status);
/// The exit code of a normal exit.
int ldp_exit_code(int status);
/// The signal that ended the process.
int ldp_term_signal(int status);
/// kill(-pgid, signal) then kill(pid, signal).
void ldp_kill(int32_t pid, int signal);
/// A non-blocking, close-on-exec pipe for waking a poll; returns 0 or -errno.
int ldp_wake_pipe(int fds[2]);
#endif
