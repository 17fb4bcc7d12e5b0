#ifndef C_CRYPTO_SHIM_H
#define C_CRYPTO_SHIM_H
#include <stddef.h>
#include <openssl/evp.h>

/// OPENSSL_free, which is a function-like macro Swift cannot import.
void cshim_openssl_free(void *pointer);
/// getrandom(2), which Glibc's Swift module does not expose; returns 0 on success.
int cshim_random_bytes(void *buffer, size_t count);
#endif
