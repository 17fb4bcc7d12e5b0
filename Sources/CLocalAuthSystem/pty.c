#define _GNU_SOURCE
#include "CLocalAuthSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int las_open_pseudo_terminal(char *name, size_t name_size) {
        int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (master < 0)
                return -errno;
        if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, name_size) != 0) {
                int error = errno;
                close(master);
                return -error;
        }
        return master;
}
