#define _GNU_SOURCE
#include "CDriverProcess.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int ldp_spawn(char *const argv[], ldp_child *out) {
        int in[2] = {-1, -1}, outp[2] = {-1, -1}, err[2] = {-1, -1};
        int result = 0;
        if (pipe2(in, O_CLOEXEC) < 0 || pipe2(outp, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
                result = -errno;
                goto fail;
        }
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, outp[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        /* Only those three: nothing else the daemon holds (client sockets, the store, the device key,
       other drivers' pipes) reaches a driver, whatever was opened without O_CLOEXEC. */
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        sigset_t empty, defaults;
        sigemptyset(&empty);
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        sigaddset(&defaults, SIGTERM);
        sigaddset(&defaults, SIGINT);
        sigaddset(&defaults, SIGHUP);
        posix_spawnattr_setsigmask(&attributes, &empty);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
        pid_t pid;
        int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (spawned != 0) {
                result = -spawned;
                goto fail;
        }
        close(in[0]);
        close(outp[1]);
        close(err[1]);
        fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
        out->pid = pid;
        out->stdin_fd = in[1];
        out->stdout_fd = outp[0];
        out->stderr_fd = err[0];
        return 0;
fail:
        for (int i = 0; i < 2; i++) {
                if (in[i] >= 0)
                        close(in[i]);
                if (outp[i] >= 0)
                        close(outp[i]);
                if (err[i] >= 0)
                        close(err[i]);
        }
        return result;
}

int ldp_poll_input(const int *fds, short *ready, int count, int timeout_ms) {
        struct pollfd entries[8];
        if (count > 8)
                return -EINVAL;
        for (int i = 0; i < count; i++) {
                entries[i].fd = fds[i];
                entries[i].events = POLLIN;
                entries[i].revents = 0;
        }
        int result = poll(entries, (nfds_t)count, timeout_ms);
        if (result < 0)
                return -errno;
        for (int i = 0; i < count; i++)
                ready[i] = entries[i].revents;
        return result;
}

ssize_t ldp_write(int fd, const void *buffer, size_t count) {
        /* A driver that has exited closes the pipe: the write fails with EPIPE and raises SIGPIPE, which
       would end a process that has not ignored it (a test runner, an app using the library). Block
       it for this thread during the write and take the one it raised. */
        sigset_t pipe_only, previous;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
        ssize_t result = write(fd, buffer, count);
        int saved = errno;
        if (result < 0 && saved == EPIPE && !sigismember(&previous, SIGPIPE)) {
                const struct timespec now = {0, 0};
                while (sigtimedwait(&pipe_only, NULL, &now) < 0 && errno == EINTR) {
                }
        }
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
        return result < 0 ? -saved : result;
}

ssize_t ldp_read(int fd, void *buffer, size_t count) {
        ssize_t result;
        do {
                result = read(fd, buffer, count);
        } while (result < 0 && errno == EINTR);
        return result < 0 ? -errno : result;
}

int ldp_reap(int32_t pid, int *status) {
        pid_t result = waitpid(pid, status, WNOHANG);
        if (result < 0)
                return -errno;
        return result == 0 ? 0 : 1;
}

int ldp_exited(int status) {
        return WIFEXITED(status);
}
int ldp_exit_code(int status) {
        return WEXITSTATUS(status);
}
int ldp_term_signal(int status) {
        return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

void ldp_kill(int32_t pid, int signal) {
        kill(-pid, signal);
        kill(pid, signal);
}

int ldp_wake_pipe(int fds[2]) {
        return pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0 ? -errno : 0;
}
