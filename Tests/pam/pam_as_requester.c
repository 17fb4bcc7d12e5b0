/* pam_as_requester.c: authenticates USER through SERVICE the way su does for another user: the real uid
 * is the requester's (who ran su), the effective uid stays root. pamtester cannot be started like that
 * under pam_wrapper (an exec with the real uid not root is a secure exec, which drops LD_PRELOAD), so
 * this sets the real uid after the wrapper is loaded. Prints what pamtester prints for the result, and
 * how long pam_authenticate took (the module's cost without the process's start, for pam_latency.py).
 *
 * Usage: pam_as_requester UID SERVICE USER */
#define _GNU_SOURCE
#include <security/pam_appl.h>
#include <security/pam_misc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
        if (argc != 4) {
                fprintf(stderr, "usage: pam_as_requester UID SERVICE USER\n");
                return 2;
        }
        uid_t requester = (uid_t)strtoul(argv[1], NULL, 10);
        if (setresuid(requester, 0, 0) != 0 || getuid() != requester || geteuid() != 0) {
                perror("pam_as_requester: setresuid");
                return 2;
        }
        struct pam_conv conversation = {misc_conv, NULL};
        pam_handle_t *pamh = NULL;
        struct timespec before, after;
        int r = pam_start(argv[2], argv[3], &conversation, &pamh);
        clock_gettime(CLOCK_MONOTONIC, &before);
        if (r == PAM_SUCCESS)
                r = pam_authenticate(pamh, 0);
        clock_gettime(CLOCK_MONOTONIC, &after);
        printf("pam_as_requester: %s\n", r == PAM_SUCCESS ? "successfully authenticated" : pam_strerror(pamh, r));
        printf("pam_as_requester: pam_authenticate took %lld us\n",
               (long long)(after.tv_sec - before.tv_sec) * 1000000 + (after.tv_nsec - before.tv_nsec) / 1000);
        pam_end(pamh, r);
        return r == PAM_SUCCESS ? 0 : 1;
}
