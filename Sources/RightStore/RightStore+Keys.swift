import LocalAuthCrypto
import RightsStorage

extension RightStore {
  /// Unseals the private key of the file-sealed right `record` describes. Throws `.notFound` if the
  /// right was removed or replaced since `record` was read, `.corrupt` if the sealed key does not
  /// open (moved between rows, tampered with, or sealed under another device key), and
  /// `.keyUnavailable` for a key made in the TPM (it never leaves it).
  public func privateKey(for record: PersistedRightRecord) throws -> P256PrivateKey {
    let (row, _) = try rightRow(of: record)
    guard row.residence == .file else {
      throw RightStoreError.keyUnavailable(
        "the key of right \(record.identifier) lives in the TPM: its private key never leaves it")
    }
    let aad = try SealingContext.aad(
      .privateKey, owner: record.owner, identifier: record.identifier)
    let sealer = try keys.sealing()
    guard let scalar = try? sealer.open(row.sealed, authenticating: aad) else {
      throw RightStoreError.corrupt(
        "the sealed private key of right \(record.identifier) does not open")
    }
    do {
      return try P256PrivateKey(rawScalar: scalar, publicX963: row.point)
    } catch {
      throw RightStoreError.corrupt(
        "the private key of right \(record.identifier) does not match its public key")
    }
  }

  /// The ECDSA signature (DER) of SHA-256(`data`) by the right's key: by the TPM (`TPM2_Sign`) for
  /// a key made there, else by the unsealed key here. Throws like `privateKey(for:)`, and
  /// `.keyUnavailable` when the TPM cannot use the key (another TPM's, the TPM gone, lockout).
  public func rightSignature(for record: PersistedRightRecord, of data: [UInt8]) throws
    -> [UInt8]
  {
    let (row, _) = try rightRow(of: record)
    guard row.residence == .tpm else {
      return try mapCryptoError { try privateKey(for: record).signature(for: data) }
    }
    let aad = try SealingContext.aad(
      .privateKey, owner: record.owner, identifier: record.identifier)
    return try tpmSignature(
      of: data, blobs: row.tpmKey, sealingContext: aad,
      what: "the key of right \(record.identifier)")
  }

  /// The raw ECDH shared secret of the right's key with `peer` (the x-coordinate, 32 bytes): by the
  /// TPM (`TPM2_ECDH_ZGen`) for a key made there, else by the unsealed key here. Throws like
  /// `rightSignature(for:of:)`.
  public func rightSharedSecret(for record: PersistedRightRecord, with peer: P256PublicKey)
    throws -> [UInt8]
  {
    let (row, _) = try rightRow(of: record)
    guard row.residence == .tpm else {
      return try mapCryptoError { try privateKey(for: record).sharedSecret(with: peer) }
    }
    let aad = try SealingContext.aad(
      .privateKey, owner: record.owner, identifier: record.identifier)
    return try tpmSharedSecret(
      with: peer.x963, blobs: row.tpmKey, sealingContext: aad,
      what: "the key of right \(record.identifier)")
  }

  /// Unseals the secret saved with the right `record` describes, or nil if it was saved without one.
  /// Throws like `privateKey(for:)`, except that a TPM-resident right's secret opens too (secrets
  /// are always sealed under the device key).
  public func secret(for record: PersistedRightRecord) throws -> [UInt8]? {
    let (_, sealedSecret) = try rightRow(of: record)
    guard let sealedSecret else { return nil }
    let aad = try SealingContext.aad(.secret, owner: record.owner, identifier: record.identifier)
    let sealer = try keys.sealing()
    guard let secret = try? sealer.open(sealedSecret, authenticating: aad) else {
      throw RightStoreError.corrupt("the sealed secret of right \(record.identifier) does not open")
    }
    return secret
  }

  /// The key columns and sealed secret of `record`'s row, checked to be still the same right (same
  /// public point).
  private func rightRow(of record: PersistedRightRecord) throws -> (KeyRow, [UInt8]?) {
    let row = try withDatabase { database in
      try database.firstRow(
        """
        SELECT public_key, sealed_private_key, sealed_secret, key_store, tpm_key FROM rights
        WHERE uid = ? AND app_id = ? AND identifier = ?
        """,
        [.integer(Int64(record.owner.uid)), .text(record.owner.appID), .text(record.identifier)]
      ) { row in
        (row.blob(0) ?? [], row.blob(1) ?? [], row.blob(2), row.text(3) ?? "", row.blob(4))
      }
    }
    guard let (point, sealed, sealedSecret, store, tpmKey) = row, point == record.publicKey.x963
    else { throw RightStoreError.notFound }
    guard let residence = KeyResidence(rawValue: store) else {
      throw RightStoreError.corrupt(
        "right \(record.identifier) lives in an unknown key store '\(store)'")
    }
    return (
      KeyRow(point: point, sealed: sealed, residence: residence, tpmKey: tpmKey), sealedSecret
    )
  }
}
