import LocalAuthCrypto
import RightsStorage

extension RightStore {
  /// Unseals the private key of the right `record` describes. Throws `.notFound` if the right was removed or
  /// replaced since `record` was read, and `.corrupt` if the sealed key does not open (moved between rows,
  /// tampered with, or sealed under another device key).
  public func privateKey(for record: PersistedRightRecord) throws -> P256PrivateKey {
    let (point, sealedKey, _) = try sealedColumns(of: record)
    let aad = try SealingContext.aad(
      .privateKey, owner: record.owner, identifier: record.identifier)
    let sealer = try keys.sealing()
    guard let scalar = try? sealer.open(sealedKey, authenticating: aad) else {
      throw RightStoreError.corrupt(
        "the sealed private key of right \(record.identifier) does not open")
    }
    do {
      return try P256PrivateKey(rawScalar: scalar, publicX963: point)
    } catch {
      throw RightStoreError.corrupt(
        "the private key of right \(record.identifier) does not match its public key")
    }
  }

  /// Unseals the secret saved with the right `record` describes, or nil if it was saved without one.
  /// Throws like `privateKey(for:)`.
  public func secret(for record: PersistedRightRecord) throws -> [UInt8]? {
    let (_, _, sealedSecret) = try sealedColumns(of: record)
    guard let sealedSecret else { return nil }
    let aad = try SealingContext.aad(.secret, owner: record.owner, identifier: record.identifier)
    let sealer = try keys.sealing()
    guard let secret = try? sealer.open(sealedSecret, authenticating: aad) else {
      throw RightStoreError.corrupt("the sealed secret of right \(record.identifier) does not open")
    }
    return secret
  }

  /// Reads the public point and sealed columns of `record`'s row, checking it is still the same right.
  private func sealedColumns(of record: PersistedRightRecord) throws -> ([UInt8], [UInt8], [UInt8]?)
  {
    let row = try withDatabase { database in
      try database.firstRow(
        """
        SELECT public_key, sealed_private_key, sealed_secret FROM rights
        WHERE uid = ? AND app_id = ? AND identifier = ?
        """,
        [.integer(Int64(record.owner.uid)), .text(record.owner.appID), .text(record.identifier)]
      ) { row in (row.blob(0) ?? [], row.blob(1) ?? [], row.blob(2)) }
    }
    guard let row, row.0 == record.publicKey.x963 else { throw RightStoreError.notFound }
    return row
  }
}
