#define _GNU_SOURCE
#include "CLocalAuthSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether a file's owner is trusted: root or the daemon's own uid. */
static int trusted_owner(const struct stat *st, uid_t uid) {
        return st->st_uid == 0 || st->st_uid == uid;
}

int las_open_trusted_directory(const char *path, unsigned uid, char *problem, size_t size) {
        char copy[4096];
        if (strlen(path) >= sizeof copy) {
                snprintf(problem, size, "path too long");
                return -ENAMETOOLONG;
        }
        strcpy(copy, path);
        int dir = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dir < 0) {
                snprintf(problem, size, "cannot open the starting directory");
                return -errno;
        }
        char *save = NULL;
        for (char *name = strtok_r(copy, "/", &save); name; name = strtok_r(NULL, "/", &save)) {
                struct stat st;
                if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno != ENOENT)
                                goto fail_errno;
                        if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
                                goto fail_errno;
                        if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                                goto fail_errno;
                }
                if (S_ISLNK(st.st_mode) && !trusted_owner(&st, uid)) {
                        snprintf(problem, size, "%s is a symbolic link owned by uid %u", name, (unsigned)st.st_uid);
                        close(dir);
                        return -EPERM;
                }
                int next = openat(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (next < 0)
                        goto fail_errno;
                close(dir);
                dir = next;
                if (fstat(dir, &st) < 0)
                        goto fail_errno;
                if (!trusted_owner(&st, uid)) {
                        snprintf(problem, size, "%s is owned by uid %u, not by root or uid %u", name,
                                 (unsigned)st.st_uid, uid);
                        close(dir);
                        return -EPERM;
                }
                if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
                        snprintf(problem, size, "%s is writable by other users (mode %04o)", name,
                                 (unsigned)(st.st_mode & 07777));
                        close(dir);
                        return -EPERM;
                }
        }
        return dir;
fail_errno : {
        int e = errno;
        snprintf(problem, size, "%s", strerror(e));
        close(dir);
        return -e;
}
}

int las_socket_probe_at(int dir, const char *name) {
        struct stat st;
        if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        return S_ISSOCK(st.st_mode) ? 1 : -EEXIST;
}

int las_unlink_at(int dir, const char *name) {
        return unlinkat(dir, name, 0) < 0 ? -errno : 0;
}

int las_chmod_socket_at(int dir, const char *name, unsigned mode) {
        /* Never follows a link: glibc resolves AT_SYMLINK_NOFOLLOW through an O_PATH descriptor. */
        if (fchmodat(dir, name, mode, AT_SYMLINK_NOFOLLOW) == 0)
                return 0;
        return -errno;
}
