import CTPMShim
import CTSS2

/// What an object made in the TPM is for.
public enum TPMObjectKind: Sendable, Equatable {
  /// An ECC P-256 key that only signs (an SSH key).
  case signingKey
  /// An ECC P-256 key that signs and computes ECDH shared secrets (a persisted right's key).
  case signingAndExchangeKey
  /// Bytes sealed in a data object (the device key).
  case sealedData([UInt8])
}

/// A key made inside the TPM: the blobs to keep and its public point.
public struct TPMKey: Sendable, Equatable {
  /// What to store to load the key again (useless on any other TPM).
  public var blobs: TPMKeyBlobs
  /// The public point in X9.63 form, `04 | X | Y` (65 bytes); empty for sealed data.
  public var publicPoint: [UInt8]
}

extension TPM {
  /// The largest auth value a key takes: the size of its name algorithm's digest (SHA-256).
  public static let maxAuthBytes = 32
  /// The most bytes sealed data holds (`TPM2B_SENSITIVE_DATA`).
  public static let maxSealedBytes = 128

  /// Makes an object of `kind` under the storage key with auth value `auth`
  /// (`fixedTPM | fixedParent`, so it never leaves this TPM; keys are `sensitiveDataOrigin`: the
  /// TPM draws the private key and never gives it out).
  public func create(_ kind: TPMObjectKind, auth: [UInt8]) throws(TPMError) -> TPMKey {
    guard auth.count <= Self.maxAuthBytes else {
      throw TPMError("TPMKeys.create: auth value over 32 bytes", code: 0, kind: .failed)
    }
    let (shimKind, data): (tpmkeys_kind, [UInt8]) =
      switch kind {
      case .signingKey: (TPMKEYS_SIGN, [])
      case .signingAndExchangeKey: (TPMKEYS_SIGN_EXCHANGE, [])
      case .sealedData(let bytes): (TPMKEYS_SEALED, bytes)
      }
    guard data.count <= Self.maxSealedBytes else {
      throw TPMError("TPMKeys.create: sealed data over 128 bytes", code: 0, kind: .failed)
    }
    return try underStorageKey { (session, srk) throws(TPMError) -> TPMKey in
      let limit = Int(TPMKEYS_BLOB_MAX)
      var publicBlob = [UInt8](repeating: 0, count: limit)
      var privateBlob = [UInt8](repeating: 0, count: limit)
      var point = [UInt8](repeating: 0, count: 64)
      var (publicSize, privateSize) = (0, 0)
      try check(
        tpmkeys_create(
          session.context, srk, shimKind, auth, auth.count, data, data.count, &publicBlob,
          &publicSize, &privateBlob, &privateSize, &point), "Esys_Create")
      let blobs = TPMKeyBlobs(
        publicArea: Array(publicBlob.prefix(publicSize)),
        privateArea: Array(privateBlob.prefix(privateSize)))
      if case .sealedData = kind { return TPMKey(blobs: blobs, publicPoint: []) }
      return TPMKey(blobs: blobs, publicPoint: [0x04] + point)
    }
  }

  /// The public point (`04 | X | Y`) written in a key's public blob, read without the TPM.
  public static func publicPoint(of blobs: TPMKeyBlobs) -> [UInt8]? {
    var point = [UInt8](repeating: 0, count: 64)
    guard tpmkeys_public_point(blobs.publicArea, blobs.publicArea.count, &point) == 0 else {
      return nil
    }
    return [0x04] + point
  }

  /// Signs a 32-byte SHA-256 digest with the key in `blobs` (`Esys_Sign`, ECDSA): `r` and `s`, 32
  /// bytes each.
  public func sign(digest: [UInt8], with blobs: TPMKeyBlobs, auth: [UInt8]) throws(TPMError)
    -> (r: [UInt8], s: [UInt8])
  {
    guard digest.count == 32 else {
      throw TPMError("TPMKeys.sign: a digest is 32 bytes", code: 0, kind: .failed)
    }
    return try withLoaded(blobs, auth: auth) {
      (session, key) throws(TPMError) -> (r: [UInt8], s: [UInt8]) in
      var r = [UInt8](repeating: 0, count: 32)
      var s = [UInt8](repeating: 0, count: 32)
      try check(tpmkeys_sign(session.context, key, digest, &r, &s), "Esys_Sign")
      return (r, s)
    }
  }

  /// The ECDH shared secret of the key in `blobs` with `peer` (`04 | X | Y`): the x-coordinate of
  /// the shared point (`Esys_ECDH_ZGen`), 32 bytes.
  public func sharedSecret(with peer: [UInt8], using blobs: TPMKeyBlobs, auth: [UInt8])
    throws(TPMError) -> [UInt8]
  {
    guard peer.count == 65, peer.first == 0x04 else {
      throw TPMError("TPMKeys.sharedSecret: a peer point is 65 bytes", code: 0, kind: .failed)
    }
    return try withLoaded(blobs, auth: auth) { (session, key) throws(TPMError) -> [UInt8] in
      var shared = [UInt8](repeating: 0, count: 32)
      try check(
        tpmkeys_ecdh_zgen(session.context, key, Array(peer.dropFirst()), &shared),
        "Esys_ECDH_ZGen")
      return shared
    }
  }

  /// The bytes sealed in `blobs` (`Esys_Unseal`).
  public func unseal(_ blobs: TPMKeyBlobs, auth: [UInt8] = []) throws(TPMError) -> [UInt8] {
    try withLoaded(blobs, auth: auth) { (session, object) throws(TPMError) -> [UInt8] in
      var data = [UInt8](repeating: 0, count: Self.maxSealedBytes)
      var count = 0
      try check(tpmkeys_unseal(session.context, object, &data, &count), "Esys_Unseal")
      return Array(data.prefix(count))
    }
  }
}
