/* login-probe.c: a login's PAM transaction the way login(1) and a display manager's worker run it, for
 * the container tests of issue 33 (Tests/systemd/login-keyring.sh): PAM_TTY, PAM_RHOST and the PAM
 * environment's XDG_SEAT as the caller sets them, then pam_authenticate and, with --session,
 * pam_setcred, pam_open_session, COMMAND as the user in that session, pam_close_session.
 *
 * --vt N is a login on virtual terminal N. The container has no virtual terminals, so the probe, in a
 * mount namespace of its own, binds its controlling terminal (a pseudo-terminal of pty-run) over
 * /dev/ttyN and sets PAM_TTY=ttyN: the module then sees what it sees on a real VT, the device named by
 * PAM_TTY being the caller's controlling terminal (stat's st_rdev against /proc/self/stat), and
 * /sys/class/tty/tty0/active (the host's, read-only) says which VT is on screen. What it cannot
 * reproduce: the device's major number (4 on a VT, 136 here), which the module does not read.
 *
 * Usage: login-probe [--vt N | --tty NAME] [--rhost HOST] [--seat SEAT] [--session COMMAND] SERVICE USER */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <security/pam_appl.h>
#include <security/pam_misc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int bind_terminal(int number) {
        char target[32];
        const char *own = ttyname(0);
        if (!own) {
                perror("login-probe: ttyname");
                return -1;
        }
        snprintf(target, sizeof target, "/dev/tty%d", number);
        if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
                perror("login-probe: unshare");
                return -1;
        }
        /* The mount point must exist: login-keyring.sh makes an empty /dev/ttyN in the container. */
        struct stat existing;
        if (stat(target, &existing) != 0) {
                fprintf(stderr, "login-probe: %s missing (the test creates it)\n", target);
                return -1;
        }
        if (mount(own, target, NULL, MS_BIND, NULL) != 0) {
                perror("login-probe: mount --bind");
                return -1;
        }
        return 0;
}

static int run_session(pam_handle_t *pamh, const char *user, const char *command) {
        struct passwd *account = getpwnam(user);
        if (!account)
                return 1;
        char **environment = pam_getenvlist(pamh);
        pid_t child = fork();
        if (child == 0) {
                if (initgroups(user, account->pw_gid) != 0 || setgid(account->pw_gid) != 0 ||
                    setuid(account->pw_uid) != 0)
                        _exit(126);
                if (chdir(account->pw_dir) != 0)
                        _exit(126);
                char home[512], name[160];
                snprintf(home, sizeof home, "HOME=%s", account->pw_dir);
                snprintf(name, sizeof name, "USER=%s", user);
                putenv(home);
                putenv(name);
                for (char **e = environment; e && *e; e++)
                        putenv(*e);
                execl("/bin/sh", "sh", "-c", command, (char *)NULL);
                _exit(127);
        }
        int status = 0;
        waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv) {
        int vt = 0;
        const char *tty = NULL, *rhost = NULL, *seat = NULL, *session = NULL;
        int i = 1;
        for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
                if (strcmp(argv[i], "--vt") == 0)
                        vt = atoi(argv[i + 1]);
                else if (strcmp(argv[i], "--tty") == 0)
                        tty = argv[i + 1];
                else if (strcmp(argv[i], "--rhost") == 0)
                        rhost = argv[i + 1];
                else if (strcmp(argv[i], "--seat") == 0)
                        seat = argv[i + 1];
                else if (strcmp(argv[i], "--session") == 0)
                        session = argv[i + 1];
                else
                        break;
        }
        if (argc - i != 2) {
                fprintf(stderr, "usage: login-probe [--vt N | --tty NAME] [--rhost HOST] [--seat SEAT] "
                                "[--session COMMAND] SERVICE USER\n");
                return 2;
        }
        char vt_name[16];
        if (vt > 0) {
                if (bind_terminal(vt) != 0)
                        return 2;
                snprintf(vt_name, sizeof vt_name, "tty%d", vt);
                tty = vt_name;
        }
        struct pam_conv conversation = {misc_conv, NULL};
        pam_handle_t *pamh = NULL;
        int r = pam_start(argv[i], argv[i + 1], &conversation, &pamh);
        if (r == PAM_SUCCESS && tty)
                r = pam_set_item(pamh, PAM_TTY, tty);
        if (r == PAM_SUCCESS && rhost)
                r = pam_set_item(pamh, PAM_RHOST, rhost);
        char seat_variable[80];
        if (r == PAM_SUCCESS && seat) {
                snprintf(seat_variable, sizeof seat_variable, "XDG_SEAT=%s", seat);
                r = pam_putenv(pamh, seat_variable);
        }
        if (r == PAM_SUCCESS)
                r = pam_authenticate(pamh, 0);
        if (r == PAM_SUCCESS)
                r = pam_acct_mgmt(pamh, 0);
        printf("login-probe: %s\n", r == PAM_SUCCESS ? "authenticated" : pam_strerror(pamh, r));
        int status = r == PAM_SUCCESS ? 0 : 1;
        if (r == PAM_SUCCESS && session) {
                r = pam_setcred(pamh, PAM_ESTABLISH_CRED);
                if (r == PAM_SUCCESS)
                        r = pam_open_session(pamh, 0);
                if (r == PAM_SUCCESS) {
                        status = run_session(pamh, argv[i + 1], session);
                        printf("login-probe: session command exit %d\n", status);
                        pam_close_session(pamh, 0);
                        pam_setcred(pamh, PAM_DELETE_CRED);
                } else {
                        printf("login-probe: session: %s\n", pam_strerror(pamh, r));
                        status = 1;
                }
        }
        fflush(stdout);
        pam_end(pamh, r);
        return status;
}
