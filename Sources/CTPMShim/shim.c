// The TPM structures TPMKeys fills: tss2's constants are cast macros Swift cannot import, so the
// templates, schemes and buffers are written here and TPMKeys drives the calls and the flushes.
#include "CTPMShim.h"

#include <string.h>
#include <tss2/tss2_mu.h>

static const TPMA_OBJECT key_attributes =
        TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH;

static void ecc_template(TPM2B_PUBLIC *template, TPMA_OBJECT attributes, TPMI_ALG_ECC_SCHEME scheme) {
        memset(template, 0, sizeof(*template));
        template->publicArea.type = TPM2_ALG_ECC;
        template->publicArea.nameAlg = TPM2_ALG_SHA256;
        template->publicArea.objectAttributes = attributes;
        TPMS_ECC_PARMS *ecc = &template->publicArea.parameters.eccDetail;
        ecc->symmetric.algorithm = TPM2_ALG_NULL;
        ecc->scheme.scheme = scheme;
        if (scheme == TPM2_ALG_ECDSA)
                ecc->scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
        ecc->curveID = TPM2_ECC_NIST_P256;
        ecc->kdf.scheme = TPM2_ALG_NULL;
}

TSS2_RC tpmkeys_create_srk(ESYS_CONTEXT *context, ESYS_TR *srk) {
        // TCG TPM v2.0 Provisioning Guidance, the ECC NIST P-256 SRK template: a restricted decryption
        // key with AES-128-CFB, noDA, an empty auth value and unique X and Y of 32 zero bytes each.
        TPM2B_PUBLIC template;
        ecc_template(&template, key_attributes | TPMA_OBJECT_NODA | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT,
                     TPM2_ALG_NULL);
        TPMS_ECC_PARMS *ecc = &template.publicArea.parameters.eccDetail;
        ecc->symmetric.algorithm = TPM2_ALG_AES;
        ecc->symmetric.keyBits.aes = 128;
        ecc->symmetric.mode.aes = TPM2_ALG_CFB;
        template.publicArea.unique.ecc.x.size = 32;
        template.publicArea.unique.ecc.y.size = 32;
        TPM2B_SENSITIVE_CREATE sensitive = {0};
        TPM2B_DATA outside = {0};
        TPML_PCR_SELECTION pcrs = {0};
        TPM2B_PUBLIC *public = NULL;
        TPM2B_CREATION_DATA *creation = NULL;
        TPM2B_DIGEST *hash = NULL;
        TPMT_TK_CREATION *ticket = NULL;
        TSS2_RC rc =
                Esys_CreatePrimary(context, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &sensitive,
                                   &template, &outside, &pcrs, srk, &public, &creation, &hash, &ticket);
        Esys_Free(public);
        Esys_Free(creation);
        Esys_Free(hash);
        Esys_Free(ticket);
        return rc;
}

static void copy_point(const TPMS_ECC_POINT *point, uint8_t *out) {
        memset(out, 0, 64);
        size_t x = point->x.size > 32 ? 32 : point->x.size;
        size_t y = point->y.size > 32 ? 32 : point->y.size;
        memcpy(out + 32 - x, point->x.buffer, x);
        memcpy(out + 64 - y, point->y.buffer, y);
}

static TSS2_RC marshal(const TPM2B_PUBLIC *public, const TPM2B_PRIVATE *private, uint8_t *public_blob,
                       size_t *public_size, uint8_t *private_blob, size_t *private_size) {
        size_t offset = 0;
        TSS2_RC rc = Tss2_MU_TPM2B_PUBLIC_Marshal(public, public_blob, TPMKEYS_BLOB_MAX, &offset);
        if (rc != TSS2_RC_SUCCESS)
                return rc;
        *public_size = offset;
        offset = 0;
        rc = Tss2_MU_TPM2B_PRIVATE_Marshal(private, private_blob, TPMKEYS_BLOB_MAX, &offset);
        if (rc != TSS2_RC_SUCCESS)
                return rc;
        *private_size = offset;
        return TSS2_RC_SUCCESS;
}

TSS2_RC tpmkeys_create(ESYS_CONTEXT *context, ESYS_TR parent, enum tpmkeys_kind kind, const uint8_t *auth,
                       size_t auth_size, const uint8_t *data, size_t data_size, uint8_t *public_blob,
                       size_t *public_size, uint8_t *private_blob, size_t *private_size, uint8_t *point) {
        TPM2B_SENSITIVE_CREATE sensitive = {0};
        if (auth_size > 32 || data_size > sizeof(sensitive.sensitive.data.buffer))
                return TSS2_ESYS_RC_BAD_VALUE;
        sensitive.sensitive.userAuth.size = (UINT16)auth_size;
        if (auth_size > 0)
                memcpy(sensitive.sensitive.userAuth.buffer, auth, auth_size);
        TPM2B_PUBLIC template;
        switch (kind) {
        case TPMKEYS_SIGN: ecc_template(&template, key_attributes | TPMA_OBJECT_SIGN_ENCRYPT, TPM2_ALG_ECDSA); break;
        case TPMKEYS_SIGN_EXCHANGE:
                ecc_template(&template, key_attributes | TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT, TPM2_ALG_NULL);
                break;
        case TPMKEYS_SEALED:
                memset(&template, 0, sizeof(template));
                template.publicArea.type = TPM2_ALG_KEYEDHASH;
                template.publicArea.nameAlg = TPM2_ALG_SHA256;
                template.publicArea.objectAttributes =
                        TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA;
                template.publicArea.parameters.keyedHashDetail.scheme.scheme = TPM2_ALG_NULL;
                sensitive.sensitive.data.size = (UINT16)data_size;
                if (data_size > 0)
                        memcpy(sensitive.sensitive.data.buffer, data, data_size);
                break;
        default: return TSS2_ESYS_RC_BAD_VALUE;
        }
        TPM2B_DATA outside = {0};
        TPML_PCR_SELECTION pcrs = {0};
        TPM2B_PRIVATE *private = NULL;
        TPM2B_PUBLIC *public = NULL;
        TPM2B_CREATION_DATA *creation = NULL;
        TPM2B_DIGEST *hash = NULL;
        TPMT_TK_CREATION *ticket = NULL;
        TSS2_RC rc = Esys_Create(context, parent, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &sensitive, &template,
                                 &outside, &pcrs, &private, &public, &creation, &hash, &ticket);
        explicit_bzero(&sensitive, sizeof(sensitive));
        if (rc == TSS2_RC_SUCCESS) {
                rc = marshal(public, private, public_blob, public_size, private_blob, private_size);
                if (kind != TPMKEYS_SEALED)
                        copy_point(&public->publicArea.unique.ecc, point);
        }
        Esys_Free(private);
        Esys_Free(public);
        Esys_Free(creation);
        Esys_Free(hash);
        Esys_Free(ticket);
        return rc;
}

TSS2_RC tpmkeys_load(ESYS_CONTEXT *context, ESYS_TR parent, const uint8_t *public_blob, size_t public_size,
                     const uint8_t *private_blob, size_t private_size, const uint8_t *auth, size_t auth_size,
                     ESYS_TR *object) {
        TPM2B_PUBLIC public = {0};
        TPM2B_PRIVATE private = {0};
        size_t offset = 0;
        TSS2_RC rc = Tss2_MU_TPM2B_PUBLIC_Unmarshal(public_blob, public_size, &offset, &public);
        if (rc != TSS2_RC_SUCCESS)
                return rc;
        offset = 0;
        rc = Tss2_MU_TPM2B_PRIVATE_Unmarshal(private_blob, private_size, &offset, &private);
        if (rc != TSS2_RC_SUCCESS)
                return rc;
        rc = Esys_Load(context, parent, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &private, &public, object);
        if (rc != TSS2_RC_SUCCESS)
                return rc;
        TPM2B_AUTH value = {0};
        if (auth_size > sizeof(value.buffer))
                auth_size = sizeof(value.buffer);
        value.size = (UINT16)auth_size;
        if (auth_size > 0)
                memcpy(value.buffer, auth, auth_size);
        rc = Esys_TR_SetAuth(context, *object, &value);
        explicit_bzero(&value, sizeof(value));
        return rc;
}

int tpmkeys_public_point(const uint8_t *public_blob, size_t public_size, uint8_t *point) {
        TPM2B_PUBLIC public = {0};
        size_t offset = 0;
        if (Tss2_MU_TPM2B_PUBLIC_Unmarshal(public_blob, public_size, &offset, &public) != TSS2_RC_SUCCESS)
                return -1;
        if (public.publicArea.type != TPM2_ALG_ECC ||
            public.publicArea.parameters.eccDetail.curveID != TPM2_ECC_NIST_P256)
                return -1;
        copy_point(&public.publicArea.unique.ecc, point);
        return 0;
}

static void copy_parameter(const TPM2B_ECC_PARAMETER *parameter, uint8_t *out) {
        memset(out, 0, 32);
        size_t size = parameter->size > 32 ? 32 : parameter->size;
        memcpy(out + 32 - size, parameter->buffer, size);
}

TSS2_RC tpmkeys_sign(ESYS_CONTEXT *context, ESYS_TR key, const uint8_t *digest, uint8_t *r, uint8_t *s) {
        TPM2B_DIGEST message = {.size = 32};
        memcpy(message.buffer, digest, 32);
        TPMT_SIG_SCHEME scheme = {.scheme = TPM2_ALG_ECDSA, .details.ecdsa.hashAlg = TPM2_ALG_SHA256};
        TPMT_TK_HASHCHECK validation = {.tag = TPM2_ST_HASHCHECK, .hierarchy = TPM2_RH_NULL};
        TPMT_SIGNATURE *signature = NULL;
        TSS2_RC rc = Esys_Sign(context, key, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &message, &scheme,
                               &validation, &signature);
        if (rc == TSS2_RC_SUCCESS) {
                copy_parameter(&signature->signature.ecdsa.signatureR, r);
                copy_parameter(&signature->signature.ecdsa.signatureS, s);
        }
        Esys_Free(signature);
        return rc;
}

TSS2_RC tpmkeys_ecdh_zgen(ESYS_CONTEXT *context, ESYS_TR key, const uint8_t *peer, uint8_t *shared_x) {
        TPM2B_ECC_POINT point = {0};
        point.point.x.size = 32;
        memcpy(point.point.x.buffer, peer, 32);
        point.point.y.size = 32;
        memcpy(point.point.y.buffer, peer + 32, 32);
        TPM2B_ECC_POINT *shared = NULL;
        TSS2_RC rc = Esys_ECDH_ZGen(context, key, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &point, &shared);
        if (rc == TSS2_RC_SUCCESS)
                copy_parameter(&shared->point.x, shared_x);
        if (shared != NULL)
                explicit_bzero(shared, sizeof(*shared));
        Esys_Free(shared);
        return rc;
}

TSS2_RC tpmkeys_unseal(ESYS_CONTEXT *context, ESYS_TR object, uint8_t *data, size_t *data_size) {
        TPM2B_SENSITIVE_DATA *sealed = NULL;
        TSS2_RC rc = Esys_Unseal(context, object, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &sealed);
        if (rc == TSS2_RC_SUCCESS) {
                *data_size = sealed->size;
                memcpy(data, sealed->buffer, sealed->size);
        }
        if (sealed != NULL)
                explicit_bzero(sealed, sizeof(*sealed));
        Esys_Free(sealed);
        return rc;
}
