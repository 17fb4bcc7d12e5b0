import Foundation
import RightsStorage
import Testing

@testable import RightStore

/// Per-uid counts the store enforces, and how soon dead handoffs leave the disk.
@Suite("Store quotas and pruning")
struct StoreQuotaTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("Saved rights per uid are counted over all the uid's apps")
  func savedRightsPerUID() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    for app in ["a", "b"] {
      _ = try store.saveRight(
        owner: Owner(uid: 1000, appID: app), identifier: "r", requirement: "default",
        domainStateHash: nil, secret: nil, maxRightsPerUID: 2)
    }
    #expect(throws: RightStoreError.limitReached(.savedRightsPerUID, 2)) {
      _ = try store.saveRight(
        owner: Owner(uid: 1000, appID: "c"), identifier: "r", requirement: "default",
        domainStateHash: nil, secret: nil, maxRightsPerUID: 2)
    }
    _ = try store.saveRight(
      owner: Owner(uid: 1001, appID: "c"), identifier: "r", requirement: "default",
      domainStateHash: nil, secret: nil, maxRightsPerUID: 2)
    #expect(try store.removeRight(owner: Owner(uid: 1000, appID: "a"), identifier: "r"))
    _ = try store.saveRight(
      owner: Owner(uid: 1000, appID: "c"), identifier: "r", requirement: "default",
      domainStateHash: nil, secret: nil, maxRightsPerUID: 2)
  }

  @Test("Handoffs per uid count pending and freshly expired ones; another uid is unaffected")
  func handoffsPerUID() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    for _ in 0..<3 {
      _ = try store.createHandoff(
        uid: 1000, appID: "a", payload: [1], expiresAt: now + 1, now: now, maxHandoffsPerUID: 3)
    }
    // Expired a moment ago: still counted, so a short ttl does not multiply what a uid holds.
    #expect(throws: RightStoreError.limitReached(.handoffsPerUID, 3)) {
      _ = try store.createHandoff(
        uid: 1000, appID: "a", payload: [1], expiresAt: now + 10, now: now + 2,
        maxHandoffsPerUID: 3)
    }
    _ = try store.createHandoff(
      uid: 1001, appID: "a", payload: [1], expiresAt: now + 10, now: now + 2, maxHandoffsPerUID: 3)
    let later = now + Double(RightStore.expiredRetention) / 1000 + 2
    _ = try store.createHandoff(
      uid: 1000, appID: "a", payload: [1], expiresAt: later + 10, now: later, maxHandoffsPerUID: 3)
  }

  @Test("An expired handoff's payload is wiped at once and its row removed minutes later")
  func expiredHandoffsArePruned() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let payload = [UInt8](repeating: 7, count: 4096)
    let id = try store.createHandoff(
      uid: 1000, appID: "a", payload: payload, expiresAt: now + 1, now: now)
    #expect(try storedPayloadBytes(store) > 4096)
    #expect(try store.pruneHandoffs(now: now + 2) == 0)
    #expect(try storedPayloadBytes(store) == 0, "the expired payload is wiped")
    #expect(throws: RightStoreError.expired) {
      try store.redeemHandoff(id: id, uid: 1000, now: now + 2)
    }
    let later = now + Double(RightStore.expiredRetention) / 1000 + 2
    #expect(try store.pruneHandoffs(now: later) == 1)
    #expect(throws: RightStoreError.notFound) {
      try store.redeemHandoff(id: id, uid: 1000, now: later)
    }
  }

  @Test("Redeemed handoffs kept for late callers are capped per uid")
  func redeemedAreCapped() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    var ids: [String] = []
    for second in 0..<4 {
      let at = now + Double(second)
      let id = try store.createHandoff(
        uid: 1000, appID: "a", payload: [1], expiresAt: at + 60, now: at, maxHandoffsPerUID: 2)
      try store.authorizeHandoff(id: id, uid: 1000, now: at)
      _ = try store.redeemHandoff(id: id, uid: 1000, now: at)
      ids.append(id)
    }
    let rows = try store.withDatabase { database in
      try database.firstRow("SELECT COUNT(*) FROM handoffs WHERE uid = 1000") { $0.integer(0) }
    }
    #expect(rows == 3, "two redeemed kept from before the last create, plus the last one")
    #expect(throws: RightStoreError.alreadyRedeemed) {
      try store.redeemHandoff(id: ids[3], uid: 1000, now: now + 5)
    }
  }

  private func storedPayloadBytes(_ store: RightStore) throws -> Int64 {
    try store.withDatabase { database in
      try database.firstRow("SELECT COALESCE(SUM(length(payload)), 0) FROM handoffs") {
        $0.integer(0)
      } ?? 0
    }
  }
}
