import FoundationEssentials
import LocalAuthProtocol
import RightsStorage

/// The handoff tokens (docs/rights-and-keys.md, "Handoffs"), kept in the store: each call runs on
/// the store's thread at the instant `now` it is given, and maps the store's refusals with
/// `StoreFailure.handoffError`.
extension StoreLane {
  /// Creates a handoff of `uid` and `appID` living `ttl` seconds from `now`; its id and expiry.
  func createHandoff(
    uid: UInt32, appID: String, payload: [UInt8], ttl: Int, now: Date, maxPerUID: Int
  ) async throws(RPCError) -> (id: String, expiresAt: Date) {
    let expiresAt = now.addingTimeInterval(Double(ttl))
    let id = try await run(mapping: StoreFailure.handoffError) { store in
      try store.createHandoff(
        uid: uid, appID: appID, payload: payload, expiresAt: expiresAt, now: now,
        maxHandoffsPerUID: maxPerUID)
    }
    return (id, expiresAt)
  }

  /// The handoffs of `uid` not yet redeemed nor expired at `now`, of all its apps.
  func pendingHandoffs(uid: UInt32, now: Date) async throws(RPCError) -> [HandoffRecord] {
    try await run(mapping: StoreFailure.handoffError) { store in
      try store.pendingHandoffs(uid: uid, now: now)
    }
  }

  /// The handoff `id` of `uid` if it can still be authorized at `now`.
  func liveHandoff(id: String, uid: UInt32, now: Date) async throws(RPCError) -> HandoffRecord {
    try await run(mapping: StoreFailure.handoffError) { store in
      try store.liveHandoff(id: id, uid: uid, now: now)
    }
  }

  /// Marks the handoff authorized once the user proved presence.
  func authorizeHandoff(id: String, uid: UInt32, now: Date) async throws(RPCError) {
    try await run(mapping: StoreFailure.handoffError) { store in
      try store.authorizeHandoff(id: id, uid: uid, now: now)
    }
  }

  /// Redeems an authorized handoff once, for the app that created it (to any other app of the
  /// uid it does not exist); its payload.
  func redeemHandoff(id: String, uid: UInt32, appID: String, now: Date) async throws(RPCError)
    -> [UInt8]
  {
    try await run(mapping: StoreFailure.handoffError) { store in
      try store.redeemHandoff(id: id, uid: uid, appID: appID, now: now)
    }
  }
}
