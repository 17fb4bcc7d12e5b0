import FoundationEssentials
import LocalAuthCrypto

/// Deferred authorization (SPEC 7.5): a non-interactive client creates a handoff, an interactive client of the same
/// uid authorizes it, and the creator redeems it exactly once. Stored in the database so a redeemed handoff stays
/// redeemed across restarts; payloads are sealed under the device key and wiped on redemption.
extension RightStore {
  /// How long redeemed or expired handoffs are kept (so late calls get `.alreadyRedeemed`/`.expired`) before pruning.
  static let handoffRetention: Int64 = 24 * 60 * 60 * 1000

  /// Creates a pending handoff carrying `payload` that can be authorized and redeemed until `expiresAt`;
  /// returns its single-use id (128 random bits as 32 hex digits). Also prunes long-dead handoffs.
  public func createHandoff(
    uid: UInt32, appID: String, payload: [UInt8], expiresAt: Date, now: Date = Date()
  ) throws
    -> String
  {
    let id = SecureRandom.bytes(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    let owner = Owner(uid: uid, appID: appID)
    let aad = try SealingContext.aad(.handoffPayload, owner: owner, identifier: id)
    let sealedPayload = try mapCryptoError { try sealer.seal(payload, authenticating: aad) }
    let now = Milliseconds(now).value
    try withDatabase { database in
      try database.write { database in
        try database.run(
          "DELETE FROM handoffs WHERE MAX(expires_at_ms, COALESCE(redeemed_at_ms, 0)) < ?",
          [.integer(now - Self.handoffRetention)])
        try database.run(
          """
          INSERT INTO handoffs (id, uid, app_id, payload, created_at_ms, expires_at_ms)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
          [
            .text(id), .integer(Int64(uid)), .text(appID), .blob(sealedPayload), .integer(now),
            .integer(Milliseconds(expiresAt).value),
          ])
      }
    }
    return id
  }

  /// The handoffs of `uid` that are neither expired nor redeemed, oldest first.
  public func pendingHandoffs(uid: UInt32, now: Date = Date()) throws -> [HandoffRecord] {
    let rows = try withDatabase { database in
      try database.rows(
        """
        SELECT id, app_id, payload, created_at_ms, expires_at_ms, authorized_at_ms FROM handoffs
        WHERE uid = ? AND redeemed_at_ms IS NULL AND expires_at_ms > ? ORDER BY created_at_ms, id
        """,
        [.integer(Int64(uid)), .integer(Milliseconds(now).value)]
      ) { row in
        (
          row.text(0) ?? "", row.text(1) ?? "", row.blob(2) ?? [], row.integer(3), row.integer(4),
          !row.isNull(5)
        )
      }
    }
    return try rows.map { id, appID, sealedPayload, createdAt, expiresAt, isAuthorized in
      let owner = Owner(uid: uid, appID: appID)
      return HandoffRecord(
        id: id, owner: owner, payload: try openPayload(sealedPayload, owner: owner, id: id),
        createdAt: Milliseconds(value: createdAt).date,
        expiresAt: Milliseconds(value: expiresAt).date,
        isAuthorized: isAuthorized)
    }
  }

  /// Marks the handoff authorized (idempotent). Throws `.notFound` for an unknown id or one of another uid,
  /// `.alreadyRedeemed`, or `.expired`.
  public func authorizeHandoff(id: String, uid: UInt32, now: Date = Date()) throws {
    let now = Milliseconds(now).value
    try withDatabase { database in
      try database.write { database in
        _ = try Self.liveHandoff(in: database, id: id, uid: uid, now: now)
        try database.run(
          "UPDATE handoffs SET authorized_at_ms = COALESCE(authorized_at_ms, ?) WHERE id = ?",
          [.integer(now), .text(id)])
      }
    }
  }

  /// Redeems the handoff exactly once, in one transaction, and returns its payload. Throws `.notFound` for an
  /// unknown id or one of another uid, `.alreadyRedeemed`, `.expired`, or `.notAuthorized`.
  public func redeemHandoff(id: String, uid: UInt32, now: Date = Date()) throws -> [UInt8] {
    let now = Milliseconds(now).value
    return try withDatabase { database in
      try database.write { database in
        let handoff = try Self.liveHandoff(in: database, id: id, uid: uid, now: now)
        guard handoff.isAuthorized else { throw RightStoreError.notAuthorized }
        let payload = try openPayload(
          handoff.sealedPayload, owner: Owner(uid: uid, appID: handoff.appID), id: id)
        let changed = try database.run(
          "UPDATE handoffs SET redeemed_at_ms = ?, payload = X'' WHERE id = ? AND redeemed_at_ms IS NULL",
          [.integer(now), .text(id)])
        guard changed == 1 else { throw RightStoreError.alreadyRedeemed }
        return payload
      }
    }
  }

  /// Reads a handoff of `uid` that is neither redeemed nor expired at `now`, or throws why it is not.
  private static func liveHandoff(in database: Database, id: String, uid: UInt32, now: Int64) throws
    -> (appID: String, sealedPayload: [UInt8], isAuthorized: Bool)
  {
    let row = try database.firstRow(
      "SELECT app_id, payload, expires_at_ms, authorized_at_ms, redeemed_at_ms FROM handoffs WHERE id = ? AND uid = ?",
      [.text(id), .integer(Int64(uid))]
    ) { row in
      (row.text(0) ?? "", row.blob(1) ?? [], row.integer(2), !row.isNull(3), !row.isNull(4))
    }
    guard let (appID, sealedPayload, expiresAt, isAuthorized, isRedeemed) = row else {
      throw RightStoreError.notFound
    }
    guard !isRedeemed else { throw RightStoreError.alreadyRedeemed }
    guard now < expiresAt else { throw RightStoreError.expired }
    return (appID, sealedPayload, isAuthorized)
  }

  /// Opens a sealed handoff payload, or throws `.corrupt`.
  private func openPayload(_ sealedPayload: [UInt8], owner: Owner, id: String) throws -> [UInt8] {
    let aad = try SealingContext.aad(.handoffPayload, owner: owner, identifier: id)
    guard let payload = try? sealer.open(sealedPayload, authenticating: aad) else {
      throw RightStoreError.corrupt("the sealed payload of handoff \(id) does not open")
    }
    return payload
  }
}
