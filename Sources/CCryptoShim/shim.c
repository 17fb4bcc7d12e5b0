#include "CCryptoShim.h"
#include <openssl/crypto.h>
#include <sys/random.h>
#include <errno.h>

void cshim_openssl_free(void *pointer) {
        OPENSSL_free(pointer);
}

int cshim_random_bytes(void *buffer, size_t count) {
        unsigned char *p = buffer;
        while (count > 0) {
                ssize_t n = getrandom(p, count, 0);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -1;
                }
                p += n;
                count -= (size_t)n;
        }
        return 0;
}
