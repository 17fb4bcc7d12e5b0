/* locked.c: memory for boot-only secrets, and AES-256-GCM over it without copies. */
#include "CCryptoShim.h"
#include <openssl/evp.h>
#include <string.h>
#include <sys/mman.h>

void *cshim_locked_alloc(size_t size) {
        void *region = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED)
                return NULL;
        if (madvise(region, size, MADV_DONTDUMP) != 0 || mlock(region, size) != 0) {
                munmap(region, size);
                return NULL;
        }
        return region;
}

__attribute__((noinline)) void cshim_scrub_stack(size_t size) {
        if (size > 65536)
                size = 65536;
        unsigned char *below = __builtin_alloca(size);
        explicit_bzero(below, size);
        __asm__ __volatile__("" : : "r"(below) : "memory");
}

void cshim_locked_free(void *region, size_t size) {
        if (!region)
                return;
        explicit_bzero(region, size);
        munlock(region, size);
        munmap(region, size);
}

int cshim_aes256gcm(int encrypt, const unsigned char *key, const unsigned char *nonce, const unsigned char *aad,
                    size_t aad_length, const unsigned char *in, size_t length, unsigned char *out, unsigned char *tag) {
        EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
        int ok = 0, n = 0;
        unsigned char tail[16];
        if (!context || length > 0x7fffffff || aad_length > 0x7fffffff)
                goto done;
        if (EVP_CipherInit_ex(context, EVP_aes_256_gcm(), NULL, key, nonce, encrypt) != 1)
                goto done;
        if (aad_length > 0 && EVP_CipherUpdate(context, NULL, &n, aad, (int)aad_length) != 1)
                goto done;
        if (length > 0 && EVP_CipherUpdate(context, out, &n, in, (int)length) != 1)
                goto done;
        if (!encrypt && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, tag) != 1)
                goto done;
        if (EVP_CipherFinal_ex(context, tail, &n) != 1)
                goto done;
        if (encrypt && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1)
                goto done;
        ok = 1;
done:
        explicit_bzero(tail, sizeof tail);
        EVP_CIPHER_CTX_free(context);
        if (!ok && !encrypt && length > 0)
                explicit_bzero(out, length);
        return ok ? 0 : -1;
}
