#ifndef C_CRYPTO_SHIM_H
#define C_CRYPTO_SHIM_H
#include <stddef.h>
#include <openssl/evp.h>

/// OPENSSL_free, which is a function-like macro Swift cannot import.
void cshim_openssl_free(void *pointer);
/// getrandom(2), which Glibc's Swift module does not expose; returns 0 on success.
int cshim_random_bytes(void *buffer, size_t count);
/// A page-aligned region of `size` bytes locked in RAM (mlock(2)) and left out of core dumps
/// (MADV_DONTDUMP), zeroed; NULL when it cannot be mapped or locked (errno says why).
void *cshim_locked_alloc(size_t size);
/// Zeroes `size` bytes of the stack below the caller's frame, where the frames of the calls that
/// returned were (a short secret passed by value leaves copies there).
void cshim_scrub_stack(size_t size);
/// Zeroes and unmaps a region from cshim_locked_alloc.
void cshim_locked_free(void *region, size_t size);
/// AES-256-GCM over caller buffers (no copy of key, input or output elsewhere): encrypts (`encrypt`
/// 1) `length` bytes of `in` into `out` and writes the 16-byte tag, or decrypts and checks `tag`.
/// Returns 0, or -1 on any failure (a tag that does not match included).
int cshim_aes256gcm(int encrypt, const unsigned char *key, const unsigned char *nonce, const unsigned char *aad,
                    size_t aad_length, const unsigned char *in, size_t length, unsigned char *out, unsigned char *tag);
#endif
