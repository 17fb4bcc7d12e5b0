import FoundationEssentials
import LocalAuthCrypto
import RightsStorage

/// Deferred authorization (docs/protocol.md, "Handoffs"): a non-interactive client creates a
/// handoff, an interactive client of the same uid authorizes it, and the creator redeems it exactly
/// once. Stored in the database so a redeemed handoff stays redeemed across restarts; payloads are
/// sealed under the device key and wiped on redemption.
extension RightStore {
  /// How long redeemed handoffs are kept (so late calls get `.alreadyRedeemed`) before pruning; their payload is
  /// wiped at redemption, and at most `maxHandoffsPerUID` of them are kept per uid.
  static let redeemedRetention: Int64 = 24 * 60 * 60 * 1000
  /// How long an expired handoff is kept (so late calls get `.expired` rather than `.notFound`); its payload is
  /// wiped at the first prune after it expires.
  public static let expiredRetention: Int64 = 10 * 60 * 1000

  /// Creates a pending handoff carrying `payload` that can be authorized and redeemed until `expiresAt`;
  /// returns its single-use id (128 random bits as 32 hex digits). First prunes dead handoffs of every uid, then
  /// throws `.limitReached(.handoffsPerUID)` when `uid` still has `maxHandoffsPerUID` handoffs that are pending
  /// or expired within `expiredRetention`. A NUL byte in `appID` is refused.
  public func createHandoff(
    uid: UInt32, appID: String, payload: [UInt8], expiresAt: Date, now: Date = Date(),
    maxHandoffsPerUID: Int = .max
  ) throws
    -> String
  {
    try Self.checkNoNUL(appID, "an app ID")
    let id = SecureRandom.bytes(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    let owner = Owner(uid: uid, appID: appID)
    let aad = try SealingContext.aad(.handoffPayload, owner: owner, identifier: id)
    let sealedPayload = try mapCryptoError {
      try keys.sealing().seal(payload, authenticating: aad)
    }
    let now = Milliseconds(now).value
    try withDatabase { database in
      // Pruned in a transaction of its own, so a create refused at the limit still frees the disk.
      _ = try database.write { database in
        try Self.prune(database, now: now, keepRedeemedPerUID: maxHandoffsPerUID, uid: uid)
      }
      try database.write { database in
        let held =
          try database.firstRow(
            "SELECT COUNT(*) FROM handoffs WHERE uid = ? AND redeemed_at_ms IS NULL",
            [.integer(Int64(uid))]
          ) { $0.integer(0) } ?? 0
        guard held < maxHandoffsPerUID else {
          throw RightStoreError.limitReached(.handoffsPerUID, maxHandoffsPerUID)
        }
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

  /// Removes dead handoffs now (as `createHandoff` does); returns how many rows went. Call at start and from time
  /// to time, so an idle store does not keep them either.
  @discardableResult
  public func pruneHandoffs(now: Date = Date()) throws -> Int {
    let now = Milliseconds(now).value
    return try withDatabase { database in
      try database.write { database in try Self.prune(database, now: now) }
    }
  }

  /// Wipes the payloads of expired handoffs, deletes those expired longer than `expiredRetention` and redeemed
  /// ones older than `redeemedRetention`, and keeps only the newest `keepRedeemedPerUID` redeemed ones of `uid`.
  @discardableResult
  private static func prune(
    _ database: Database, now: Int64, keepRedeemedPerUID: Int = .max, uid: UInt32? = nil
  ) throws -> Int {
    var removed = try database.run(
      """
      DELETE FROM handoffs WHERE (redeemed_at_ms IS NULL AND expires_at_ms < ?)
        OR (redeemed_at_ms IS NOT NULL AND redeemed_at_ms < ?)
      """,
      [.integer(now - expiredRetention), .integer(now - redeemedRetention)])
    try database.run(
      "UPDATE handoffs SET payload = X'' WHERE expires_at_ms <= ? AND length(payload) > 0",
      [.integer(now)])
    if let uid, keepRedeemedPerUID < .max {
      removed += try database.run(
        """
        DELETE FROM handoffs WHERE uid = ?1 AND redeemed_at_ms IS NOT NULL AND id NOT IN (
          SELECT id FROM handoffs WHERE uid = ?1 AND redeemed_at_ms IS NOT NULL
          ORDER BY redeemed_at_ms DESC, id LIMIT ?2)
        """,
        [.integer(Int64(uid)), .integer(Int64(keepRedeemedPerUID))])
    }
    return removed
  }

  /// The handoffs of `uid` that are neither expired nor redeemed, oldest first; rows that do not open are skipped.
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
    // A row that does not open (damaged, or written truncated by an older build) is left out rather than
    // making every other handoff of the uid unlistable.
    return rows.compactMap { id, appID, sealedPayload, createdAt, expiresAt, isAuthorized in
      let owner = Owner(uid: uid, appID: appID)
      guard let payload = try? openPayload(sealedPayload, owner: owner, id: id) else { return nil }
      return HandoffRecord(
        id: id, owner: owner, payload: payload,
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

  /// The live handoff `id` of `uid`. Throws `.notFound` for an unknown id or one of another uid,
  /// `.alreadyRedeemed`, `.expired`, or `.corrupt` when its payload does not open.
  public func liveHandoff(id: String, uid: UInt32, now: Date = Date()) throws -> HandoffRecord {
    let now = Milliseconds(now).value
    let row = try withDatabase { database in
      try Self.liveHandoff(in: database, id: id, uid: uid, now: now)
    }
    let owner = Owner(uid: uid, appID: row.appID)
    return HandoffRecord(
      id: id, owner: owner, payload: try openPayload(row.sealedPayload, owner: owner, id: id),
      createdAt: Milliseconds(value: row.createdAt).date,
      expiresAt: Milliseconds(value: row.expiresAt).date, isAuthorized: row.isAuthorized)
  }

  /// Redeems the handoff exactly once, in one transaction, and returns its payload. Throws `.notFound` for an
  /// unknown id, one of another uid, or (when `appID` is given) one another app of the uid created;
  /// `.alreadyRedeemed`, `.expired`, or `.notAuthorized`.
  public func redeemHandoff(id: String, uid: UInt32, appID: String? = nil, now: Date = Date())
    throws
    -> [UInt8]
  {
    let now = Milliseconds(now).value
    return try withDatabase { database in
      try database.write { database in
        let handoff = try Self.liveHandoff(in: database, id: id, uid: uid, now: now)
        if let appID, appID != handoff.appID { throw RightStoreError.notFound }
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
    -> (
      appID: String, sealedPayload: [UInt8], isAuthorized: Bool, createdAt: Int64, expiresAt: Int64
    )
  {
    let row = try database.firstRow(
      """
      SELECT app_id, payload, expires_at_ms, authorized_at_ms, redeemed_at_ms, created_at_ms
      FROM handoffs WHERE id = ? AND uid = ?
      """,
      [.text(id), .integer(Int64(uid))]
    ) { row in
      (
        row.text(0) ?? "", row.blob(1) ?? [], row.integer(2), !row.isNull(3), !row.isNull(4),
        row.integer(5)
      )
    }
    guard let (appID, sealedPayload, expiresAt, isAuthorized, isRedeemed, createdAt) = row else {
      throw RightStoreError.notFound
    }
    guard !isRedeemed else { throw RightStoreError.alreadyRedeemed }
    guard now < expiresAt else { throw RightStoreError.expired }
    return (appID, sealedPayload, isAuthorized, createdAt, expiresAt)
  }

  /// Opens a sealed handoff payload, or throws `.corrupt`.
  private func openPayload(_ sealedPayload: [UInt8], owner: Owner, id: String) throws -> [UInt8] {
    let aad = try SealingContext.aad(.handoffPayload, owner: owner, identifier: id)
    let sealer = try keys.sealing()
    guard let payload = try? sealer.open(sealedPayload, authenticating: aad) else {
      throw RightStoreError.corrupt("the sealed payload of handoff \(id) does not open")
    }
    return payload
  }
}
