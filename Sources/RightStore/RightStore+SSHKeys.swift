import FoundationEssentials
import LocalAuthCrypto
import RightsStorage

extension RightStore {
  /// The owner whose sealing context binds an SSH key of `uid` (SSH keys have no app id).
  private static func sshOwner(_ uid: UInt32) -> Owner { Owner(uid: uid, appID: "") }

  /// Makes a new SSH key for `uid` under `name` with a freshly generated P-256 key sealed under
  /// the device key. Throws `.alreadyExists` for a name the uid already uses and
  /// `.limitReached(.sshKeysPerUID)` when the uid already has `maxKeysPerUID` keys.
  public func createSSHKey(
    uid: UInt32, name: String, policy: String, reuseSeconds: Int, maxKeysPerUID: Int
  ) throws -> SSHKeyRecord {
    guard !name.isEmpty else {
      throw RightStoreError.invalidArgument("a key name must not be empty")
    }
    try Self.checkNoNUL(name, "a key name")
    let key = try mapCryptoError { try P256PrivateKey.generate() }
    let aad = try SealingContext.aad(.sshKey, owner: Self.sshOwner(uid), identifier: name)
    let sealedKey = try mapCryptoError { try sealer.seal(key.rawScalar, authenticating: aad) }
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
                                created_at_ms, last_used_ms)
          VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
          """,
          [
            .integer(Int64(uid)), .text(name), .text(policy), .integer(Int64(reuseSeconds)),
            .blob(key.publicKey.x963), .blob(sealedKey), .integer(createdAt.value),
          ])
      }
    }
    return SSHKeyRecord(
      name: name, uid: uid, policy: policy, reuseSeconds: reuseSeconds, publicKey: key.publicKey,
      createdAt: createdAt.date, lastUsedAt: nil)
  }

  /// Every SSH key of `uid`, by name.
  public func sshKeys(uid: UInt32) throws -> [SSHKeyRecord] {
    let rows = try withDatabase { database in
      try database.rows(
        """
        SELECT name, policy, reuse_seconds, public_key, created_at_ms, last_used_ms FROM ssh_keys
        WHERE uid = ? ORDER BY name
        """, [.integer(Int64(uid))]
      ) { row in
        (
          row.text(0) ?? "", row.text(1) ?? "", row.integer(2), row.blob(3) ?? [], row.integer(4),
          row.isNull(5) ? nil : row.integer(5)
        )
      }
    }
    return try rows.map { name, policy, reuse, point, created, used in
      guard let publicKey = try? P256PublicKey(x963: point) else {
        throw RightStoreError.corrupt(
          "the stored public key of SSH key \(name) is not a P-256 point")
      }
      return SSHKeyRecord(
        name: name, uid: uid, policy: policy, reuseSeconds: Int(reuse), publicKey: publicKey,
        createdAt: Milliseconds(value: created).date,
        lastUsedAt: used.map { Milliseconds(value: $0).date })
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

  /// Unseals the private key of `record` for one signature in the daemon. Throws `.notFound` when
  /// the key was deleted or replaced since `record` was read, `.corrupt` when it does not open.
  public func sshPrivateKey(for record: SSHKeyRecord) throws -> P256PrivateKey {
    let row = try withDatabase { database in
      try database.firstRow(
        "SELECT public_key, sealed_private_key FROM ssh_keys WHERE uid = ? AND name = ?",
        [.integer(Int64(record.uid)), .text(record.name)]
      ) { row in (row.blob(0) ?? [], row.blob(1) ?? []) }
    }
    guard let (point, sealed) = row, point == record.publicKey.x963 else {
      throw RightStoreError.notFound
    }
    let aad = try SealingContext.aad(
      .sshKey, owner: Self.sshOwner(record.uid), identifier: record.name)
    guard let scalar = try? sealer.open(sealed, authenticating: aad),
      let key = try? P256PrivateKey(rawScalar: scalar, publicX963: point)
    else {
      throw RightStoreError.corrupt(
        "the sealed private key of SSH key \(record.name) does not open")
    }
    return key
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
