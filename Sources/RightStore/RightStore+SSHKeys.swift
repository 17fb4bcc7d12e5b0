import FoundationEssentials
import LocalAuthCrypto
import RightsStorage

extension RightStore {
  /// The owner whose sealing context binds an SSH key of `uid` (SSH keys have no app id).
  private static func sshOwner(_ uid: UInt32) -> Owner { Owner(uid: uid, appID: "") }

  /// Makes a new SSH key for `uid` under `name`: inside the TPM when the store has one (its blobs
  /// kept, its auth value derived from the device key), else a freshly generated P-256 key sealed
  /// under the device key. Throws `.alreadyExists` for a name the uid already uses and
  /// `.limitReached(.sshKeysPerUID)` when the uid already has `maxKeysPerUID` keys.
  public func createSSHKey(
    uid: UInt32, name: String, policy: String, reuseSeconds: Int, keepOnLock: Bool = false,
    maxKeysPerUID: Int
  ) throws -> SSHKeyRecord {
    guard !name.isEmpty else {
      throw RightStoreError.invalidArgument("a key name must not be empty")
    }
    try Self.checkNoNUL(name, "a key name")
    let aad = try SealingContext.aad(.sshKey, owner: Self.sshOwner(uid), identifier: name)
    let made = try newKey(sealingContext: aad, kind: .signingKey, what: "SSH key \(name)")
    let createdAt = Milliseconds(Date())
    try withDatabase { database in
      try database.write { database in
        let existing = try database.firstRow(
          "SELECT 1 FROM ssh_keys WHERE uid = ? AND name = ?", [.integer(Int64(uid)), .text(name)]
        ) { _ in true }
        guard existing == nil else { throw RightStoreError.alreadyExists }
        let count =
          try database.firstRow(
            "SELECT COUNT(*) FROM ssh_keys WHERE uid = ?", [.integer(Int64(uid))]
          ) { $0.integer(0) } ?? 0
        guard count < maxKeysPerUID else {
          throw RightStoreError.limitReached(.sshKeysPerUID, maxKeysPerUID)
        }
        try database.run(
          """
          INSERT INTO ssh_keys (uid, name, policy, reuse_seconds, public_key, sealed_private_key,
                                created_at_ms, last_used_ms, key_store, tpm_key, keep_on_lock)
          VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
          """,
          [
            .integer(Int64(uid)), .text(name), .text(policy), .integer(Int64(reuseSeconds)),
            .blob(made.publicKey.x963), .blob(made.sealed), .integer(createdAt.value),
            .text(made.residence.rawValue), .optionalBlob(made.tpmKey),
            .integer(keepOnLock ? 1 : 0),
          ])
      }
    }
    return SSHKeyRecord(
      name: name, uid: uid, policy: policy, reuseSeconds: reuseSeconds, publicKey: made.publicKey,
      createdAt: createdAt.date, lastUsedAt: nil, residence: made.residence,
      keepOnLock: keepOnLock)
  }

  /// Every SSH key of `uid`, by name.
  public func sshKeys(uid: UInt32) throws -> [SSHKeyRecord] {
    let rows = try withDatabase { database in
      try database.rows(
        """
        SELECT name, policy, reuse_seconds, public_key, created_at_ms, last_used_ms, key_store,
               keep_on_lock
        FROM ssh_keys WHERE uid = ? ORDER BY name
        """, [.integer(Int64(uid))]
      ) { row in
        (
          row.text(0) ?? "", row.text(1) ?? "", row.integer(2), row.blob(3) ?? [], row.integer(4),
          row.isNull(5) ? nil : row.integer(5), row.text(6) ?? "", row.integer(7) != 0
        )
      }
    }
    return try rows.map { name, policy, reuse, point, created, used, store, keepOnLock in
      guard let publicKey = try? P256PublicKey(x963: point) else {
        throw RightStoreError.corrupt(
          "the stored public key of SSH key \(name) is not a P-256 point")
      }
      guard let residence = KeyResidence(rawValue: store) else {
        throw RightStoreError.corrupt("SSH key \(name) lives in an unknown key store '\(store)'")
      }
      return SSHKeyRecord(
        name: name, uid: uid, policy: policy, reuseSeconds: Int(reuse), publicKey: publicKey,
        createdAt: Milliseconds(value: created).date,
        lastUsedAt: used.map { Milliseconds(value: $0).date }, residence: residence,
        keepOnLock: keepOnLock)
    }
  }

  /// The SSH key of `uid` named `name`, or nil.
  public func sshKey(uid: UInt32, name: String) throws -> SSHKeyRecord? {
    try sshKeys(uid: uid).first { $0.name == name }
  }

  /// Deletes the SSH key of `uid` named `name`; returns whether there was one.
  public func deleteSSHKey(uid: UInt32, name: String) throws -> Bool {
    try withDatabase { database in
      try database.write { database in
        try database.run(
          "DELETE FROM ssh_keys WHERE uid = ? AND name = ?", [.integer(Int64(uid)), .text(name)])
          > 0
      }
    }
  }

  /// Unseals the private key of a file-sealed `record` for one signature in the daemon. Throws
  /// `.notFound` when the key was deleted or replaced since `record` was read, `.corrupt` when it
  /// does not open, `.keyUnavailable` for a key in the TPM (it never leaves it).
  public func sshPrivateKey(for record: SSHKeyRecord) throws -> P256PrivateKey {
    let row = try sshKeyRow(of: record)
    guard row.residence == .file else {
      throw RightStoreError.keyUnavailable(
        "SSH key \(record.name) lives in the TPM: its private key never leaves it")
    }
    let aad = try SealingContext.aad(
      .sshKey, owner: Self.sshOwner(record.uid), identifier: record.name)
    let sealer = try keys.sealing()
    guard let scalar = try? sealer.open(row.sealed, authenticating: aad),
      let key = try? P256PrivateKey(rawScalar: scalar, publicX963: row.point)
    else {
      throw RightStoreError.corrupt(
        "the sealed private key of SSH key \(record.name) does not open")
    }
    return key
  }

  /// The ECDSA signature (DER) of SHA-256(`data`) by `record`'s key: by the TPM for a key made
  /// there, else by the unsealed key in the daemon. Throws like `sshPrivateKey(for:)`, and
  /// `.keyUnavailable` when the TPM cannot use the key (another TPM's, the TPM gone, lockout).
  public func sshSignature(for record: SSHKeyRecord, of data: [UInt8]) throws -> [UInt8] {
    let row = try sshKeyRow(of: record)
    guard row.residence == .tpm else {
      return try mapCryptoError { try sshPrivateKey(for: record).signature(for: data) }
    }
    let aad = try SealingContext.aad(
      .sshKey, owner: Self.sshOwner(record.uid), identifier: record.name)
    return try tpmSignature(
      of: data, blobs: row.tpmKey, sealingContext: aad, what: "SSH key \(record.name)")
  }

  /// The row of `record`'s key, checked to be the same key (same point) as `record`.
  private func sshKeyRow(of record: SSHKeyRecord) throws -> KeyRow {
    let row = try withDatabase { database in
      try database.firstRow(
        """
        SELECT public_key, sealed_private_key, key_store, tpm_key FROM ssh_keys
        WHERE uid = ? AND name = ?
        """,
        [.integer(Int64(record.uid)), .text(record.name)]
      ) { row in (row.blob(0) ?? [], row.blob(1) ?? [], row.text(2) ?? "", row.blob(3)) }
    }
    guard let (point, sealed, store, tpmKey) = row, point == record.publicKey.x963 else {
      throw RightStoreError.notFound
    }
    guard let residence = KeyResidence(rawValue: store) else {
      throw RightStoreError.corrupt(
        "SSH key \(record.name) lives in an unknown key store '\(store)'")
    }
    return KeyRow(point: point, sealed: sealed, residence: residence, tpmKey: tpmKey)
  }

  /// Records that the SSH key signed at `date`.
  public func markSSHKeyUsed(uid: UInt32, name: String, at date: Date) throws {
    _ = try withDatabase { database in
      try database.write { database in
        try database.run(
          "UPDATE ssh_keys SET last_used_ms = ? WHERE uid = ? AND name = ?",
          [.integer(Milliseconds(date).value), .integer(Int64(uid)), .text(name)])
      }
    }
  }
}
