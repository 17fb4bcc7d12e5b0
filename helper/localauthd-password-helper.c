/* localauthd-password-helper: checks one login password for localauthd, and nothing else.
 *
 * Started by systemd for one connection (localauthd-password.socket, Accept=yes; the connection is
 * stdin), as root, so that the daemon never reads /etc/shadow. It serves only the account
 * named on its command line (the daemon's, `localauthd`), by the connection's SO_PEERCRED: root and
 * every other uid are refused. It reads one bounded request, runs its own PAM service
 * (/etc/pam.d/localauthd-password: pam_faillock, pam_unix) for the account of the uid asked about,
 * writes one byte back on the connection and exits. The password lives in one locked page that is kept out of core dumps and
 * wiped before exit; the process is not dumpable; the environment is cleared; nothing is executed.
 *
 * The request (docs/owners-and-agents.md, "The login password"), all integers big-endian:
 *   op (1 byte)    'C' check a password, 'U' ask whether the account has a usable password
 *   uid (4 bytes)  the account; never 0
 *   length (2)     'C' only: the password's length, 1..PASSWORD_MAX (no NUL byte in it)
 *   password       'C' only: that many bytes
 * The answer, one byte: 'Y' right / usable, 'N' wrong / not usable, 'R' the peer is refused,
 * 'E' a malformed or late request, an unknown or refused account, or a PAM error. */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <security/pam_appl.h>
#include <shadow.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#define SERVICE_NAME "localauthd-password"
#define PASSWORD_MAX 512
#define REQUEST_DEADLINE_MS 5000

/* The request as read; `password` points into the locked page. */
struct request {
        char op;
        uint32_t uid;
        size_t length;
        char *password;
};

static long long now_ms(void) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Reads exactly `size` bytes from fd 0 before `deadline` (CLOCK_MONOTONIC ms); 0 or -errno. */
static int read_exactly(void *buffer, size_t size, long long deadline) {
        size_t got = 0;
        while (got < size) {
                long long left = deadline - now_ms();
                if (left <= 0)
                        return -ETIMEDOUT;
                struct pollfd wait = {.fd = 0, .events = POLLIN};
                int r = poll(&wait, 1, (int)left);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        return r < 0 ? -errno : -ETIMEDOUT;
                ssize_t n = read(0, (char *)buffer + got, size - got);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return n < 0 ? -errno : -EPIPE;
                got += (size_t)n;
        }
        return 0;
}

/* The answer goes back on the connection itself (fd 0): stdout may be the journal. */
static void answer(char byte) {
        while (send(0, &byte, 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
                ;
}

/* The uid the helper serves: argv[1], an account name or a number; never root. */
static int served_uid(const char *account, uid_t *uid) {
        char *end = NULL;
        errno = 0;
        unsigned long number = strtoul(account, &end, 10);
        if (account[0] != '\0' && end && *end == '\0' && errno == 0 && number < UINT32_MAX) {
                *uid = (uid_t)number;
        } else {
                struct passwd *entry = getpwnam(account);
                if (!entry)
                        return -ENOENT;
                *uid = entry->pw_uid;
        }
        return *uid == 0 ? -EPERM : 0;
}

/* The conversation: the password once, for the one hidden prompt pam_unix asks; anything else that
 * wants an answer fails. Messages are dropped (PAM_SILENT asks modules for none). */
static int converse(int count, const struct pam_message **messages, struct pam_response **responses, void *data) {
        struct request *request = data;
        if (count <= 0 || count > PAM_MAX_NUM_MSG)
                return PAM_CONV_ERR;
        struct pam_response *replies = calloc((size_t)count, sizeof *replies);
        if (!replies)
                return PAM_BUF_ERR;
        for (int i = 0; i < count; i++) {
                int style = messages[i]->msg_style;
                if (style == PAM_ERROR_MSG || style == PAM_TEXT_INFO)
                        continue;
                if (style != PAM_PROMPT_ECHO_OFF || !request->password)
                        goto fail;
                replies[i].resp = strndup(request->password, request->length);
                if (!replies[i].resp)
                        goto fail;
                request->password = NULL; /* given once */
        }
        *responses = replies;
        return PAM_SUCCESS;
fail:
        for (int i = 0; i < count; i++) {
                if (replies[i].resp) {
                        explicit_bzero(replies[i].resp, strlen(replies[i].resp));
                        free(replies[i].resp);
                }
        }
        free(replies);
        return PAM_CONV_ERR;
}

/* Whether the account's password can be typed at all: a hash, not empty, not locked ('!', '*'). */
static int usable_password(const struct passwd *account) {
        const char *hash = account->pw_passwd;
        struct spwd *shadow = NULL;
        if (hash && strcmp(hash, "x") == 0) {
                shadow = getspnam(account->pw_name);
                hash = shadow ? shadow->sp_pwdp : NULL;
        }
        int usable = hash && hash[0] != '\0' && hash[0] != '!' && hash[0] != '*';
        endspent();
        return usable;
}

/* PAM's verdict on the request's password for `account`: 'Y' or 'N' ('E' when PAM cannot start). */
static char check_password(const struct passwd *account, struct request *request) {
        struct pam_conv conversation = {.conv = converse, .appdata_ptr = request};
        pam_handle_t *pamh = NULL;
        int r = pam_start(SERVICE_NAME, account->pw_name, &conversation, &pamh);
        if (r != PAM_SUCCESS)
                return 'E';
        r = pam_authenticate(pamh, PAM_SILENT | PAM_DISALLOW_NULL_AUTHTOK);
        if (r == PAM_SUCCESS)
                r = pam_acct_mgmt(pamh, PAM_SILENT | PAM_DISALLOW_NULL_AUTHTOK);
        pam_end(pamh, r);
        return r == PAM_SUCCESS ? 'Y' : 'N';
}

int main(int argc, char **argv) {
        /* Never dumpable (no core, no ptrace by the peer), no core file either, nothing inherited. */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
        clearenv();
        umask(077);
        openlog("localauthd-password-helper", LOG_PID, LOG_AUTHPRIV);

        int status = 1;
        char verdict = 'E';
        uid_t served = 0;
        struct request request = {0};
        long long deadline = now_ms() + REQUEST_DEADLINE_MS;
        /* One page, locked in memory and left out of core dumps, holds the password. */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        char *secret = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (secret == MAP_FAILED) {
                secret = NULL;
                goto finish;
        }
        madvise(secret, page, MADV_DONTDUMP);
        if (mlock(secret, page) < 0)
                syslog(LOG_WARNING, "mlock: %m (the password page may be swapped)");

        if (argc != 2 || served_uid(argv[1], &served) < 0) {
                syslog(LOG_ERR, "usage: localauthd-password-helper ACCOUNT (the daemon's account, not root)");
                goto finish;
        }
        struct ucred peer;
        socklen_t size = sizeof peer;
        if (getsockopt(0, SOL_SOCKET, SO_PEERCRED, &peer, &size) < 0) {
                syslog(LOG_ERR, "stdin is not a socket: %m");
                goto finish;
        }
        if (peer.uid != served) {
                syslog(LOG_NOTICE, "refused a peer of uid %u (pid %d): only uid %u is served", (unsigned)peer.uid,
                       (int)peer.pid, (unsigned)served);
                verdict = 'R';
                goto finish;
        }

        unsigned char header[5];
        if (read_exactly(header, sizeof header, deadline) < 0)
                goto finish;
        request.op = (char)header[0];
        request.uid = (uint32_t)header[1] << 24 | (uint32_t)header[2] << 16 | (uint32_t)header[3] << 8 | header[4];
        if ((request.op != 'C' && request.op != 'U') || request.uid == 0)
                goto finish;
        if (request.op == 'C') {
                unsigned char length[2];
                if (read_exactly(length, sizeof length, deadline) < 0)
                        goto finish;
                request.length = (size_t)length[0] << 8 | length[1];
                if (request.length == 0 || request.length > PASSWORD_MAX ||
                    read_exactly(secret, request.length, deadline) < 0 || memchr(secret, '\0', request.length))
                        goto finish;
                secret[request.length] = '\0';
                request.password = secret;
        }
        struct passwd *account = getpwuid((uid_t)request.uid);
        if (!account || account->pw_uid == 0) {
                syslog(LOG_NOTICE, "no account to check for uid %u", (unsigned)request.uid);
                goto finish;
        }
        if (request.op == 'U') {
                verdict = usable_password(account) ? 'Y' : 'N';
        } else {
                verdict = check_password(account, &request);
                syslog(LOG_INFO, "password of uid %u: %s", (unsigned)request.uid,
                       verdict == 'Y'   ? "right"
                       : verdict == 'N' ? "wrong"
                                        : "not checked (PAM error)");
        }
        status = 0;
finish:
        if (secret) {
                explicit_bzero(secret, page);
                munmap(secret, page);
        }
        explicit_bzero(&request, sizeof request);
        answer(verdict);
        closelog();
        return status;
}
