#ifndef C_TPM_SHIM_H
#define C_TPM_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <tss2/tss2_esys.h>

/// The largest marshaled TPM2B_PUBLIC or TPM2B_PRIVATE blob the shim writes.
#define TPMKEYS_BLOB_MAX 1024

/// What a new object is for; it selects the template (TPMKeys' TPMObjectKind).
enum tpmkeys_kind {
        /// An ECC P-256 key that only signs (ECDSA with SHA-256).
        TPMKEYS_SIGN = 0,
        /// An ECC P-256 key that signs and computes ECDH shared points (scheme NULL).
        TPMKEYS_SIGN_EXCHANGE = 1,
        /// A sealed data object (keyed hash, no scheme) holding bytes the caller gives.
        TPMKEYS_SEALED = 2,
};

/// Esys_CreatePrimary under the owner hierarchy with the TCG ECC P-256 storage key template
/// ("SRK"), the one tpm2-tools, go-tpm and ssh-tpm-agent derive: the same seed gives the same key.
TSS2_RC tpmkeys_create_srk(ESYS_CONTEXT *context, ESYS_TR *srk);

/// Esys_Create under `parent` of an object of `kind` with the auth value `auth` (at most 32 bytes);
/// a sealed object seals `data` (at most 128 bytes). Writes the marshaled TPM2B_PUBLIC and
/// TPM2B_PRIVATE (each at most TPMKEYS_BLOB_MAX bytes) and, for a key, its point X || Y (64 bytes).
TSS2_RC tpmkeys_create(ESYS_CONTEXT *context, ESYS_TR parent, enum tpmkeys_kind kind, const uint8_t *auth,
                       size_t auth_size, const uint8_t *data, size_t data_size, uint8_t *public_blob,
                       size_t *public_size, uint8_t *private_blob, size_t *private_size, uint8_t *point);

/// Unmarshals the blobs tpmkeys_create wrote and runs Esys_Load under `parent`, then sets the
/// loaded object's auth value (Esys_TR_SetAuth). The caller flushes `object`.
TSS2_RC tpmkeys_load(ESYS_CONTEXT *context, ESYS_TR parent, const uint8_t *public_blob, size_t public_size,
                     const uint8_t *private_blob, size_t private_size, const uint8_t *auth, size_t auth_size,
                     ESYS_TR *object);

/// The point X || Y (64 bytes) of a marshaled TPM2B_PUBLIC of an ECC P-256 key; 0 on success.
int tpmkeys_public_point(const uint8_t *public_blob, size_t public_size, uint8_t *point);

/// Esys_Sign of a 32-byte SHA-256 digest with ECDSA (a null hash-check ticket: the key is not
/// restricted); writes r and s, 32 bytes each, zero-padded on the left.
TSS2_RC tpmkeys_sign(ESYS_CONTEXT *context, ESYS_TR key, const uint8_t *digest, uint8_t *r, uint8_t *s);

/// Esys_ECDH_ZGen with the peer point X || Y (64 bytes); writes Z's x-coordinate (32 bytes).
TSS2_RC tpmkeys_ecdh_zgen(ESYS_CONTEXT *context, ESYS_TR key, const uint8_t *peer, uint8_t *shared_x);

/// Esys_Unseal; writes the sealed bytes (at most 128) and their count.
TSS2_RC tpmkeys_unseal(ESYS_CONTEXT *context, ESYS_TR object, uint8_t *data, size_t *data_size);
#endif
