import LocalAuthCrypto
import RightsStorage
import TPMKeys

/// A key's stored columns: its public point, what is sealed (empty for a TPM key), where it lives
/// and its TPM blobs (encoded `TPMKeyBlobs`, nil for a file-sealed key).
struct KeyRow {
  var point: [UInt8]
  var sealed: [UInt8]
  var residence: KeyResidence
  var tpmKey: [UInt8]?
}

/// A key just made, ready for its row.
struct NewKey {
  var publicKey: P256PublicKey
  var sealed: [UInt8]
  var residence: KeyResidence
  var tpmKey: [UInt8]?
}

extension RightStore {
  /// A new P-256 key for the row whose sealing context is `context`: made inside the TPM when the
  /// store makes new keys there (its auth value derived from the device key and the context), else
  /// generated here and sealed under the device key.
  func newKey(sealingContext context: [UInt8], kind: TPMObjectKind, what: String) throws
    -> NewKey
  {
    guard keys.status.newKeys == .tpm else {
      let key = try mapCryptoError { try P256PrivateKey.generate() }
      let sealed = try mapCryptoError {
        try keys.sealing().seal(key.rawScalar, authenticating: context)
      }
      return NewKey(publicKey: key.publicKey, sealed: sealed, residence: .file, tpmKey: nil)
    }
    let tpm = try keys.requireTPM(for: what)
    let auth = try keys.authValue(for: context)
    let made: TPMKey
    do {
      made = try tpm.create(kind, auth: auth)
    } catch {
      throw StoreKeys.failure(error, of: what, tcti: tpm.tcti)
    }
    guard let publicKey = try? P256PublicKey(x963: made.publicPoint) else {
      throw RightStoreError.crypto("the TPM made \(what) with a point not on P-256")
    }
    return NewKey(publicKey: publicKey, sealed: [], residence: .tpm, tpmKey: made.blobs.encoded)
  }

  /// The TPM's ECDSA signature (DER) of SHA-256(`data`) with the key in `blobs`.
  func tpmSignature(
    of data: [UInt8], blobs: [UInt8]?, sealingContext context: [UInt8], what: String
  )
    throws -> [UInt8]
  {
    let (tpm, decoded) = try tpmKey(blobs, what: what)
    let auth = try keys.authValue(for: context)
    do {
      let (r, s) = try tpm.sign(digest: SHA256.hash(data), with: decoded, auth: auth)
      return ECDSASignature.der(r: r, s: s)
    } catch {
      throw StoreKeys.failure(error, of: what, tcti: tpm.tcti)
    }
  }

  /// The TPM's ECDH shared secret (`Esys_ECDH_ZGen`: the x-coordinate, 32 bytes) of the key in
  /// `blobs` with `peer` (`04 | X | Y`).
  func tpmSharedSecret(
    with peer: [UInt8], blobs: [UInt8]?, sealingContext context: [UInt8], what: String
  ) throws -> [UInt8] {
    let (tpm, decoded) = try tpmKey(blobs, what: what)
    let auth = try keys.authValue(for: context)
    do {
      return try tpm.sharedSecret(with: peer, using: decoded, auth: auth)
    } catch {
      throw StoreKeys.failure(error, of: what, tcti: tpm.tcti)
    }
  }

  /// The TPM and the decoded blobs of a key that lives there.
  private func tpmKey(_ blobs: [UInt8]?, what: String) throws -> (TPM, TPMKeyBlobs) {
    let tpm = try keys.requireTPM(for: what)
    guard let blobs, let decoded = TPMKeyBlobs(encoded: blobs) else {
      throw RightStoreError.corrupt("\(what) lives in the TPM but its blobs are missing")
    }
    return (tpm, decoded)
  }
}
