import Foundation
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Testing

@Suite("Deferred authorization handoffs")
struct HandoffStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("Create, list, authorize, redeem once")
  func redeemOnce() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let id = try store.createHandoff(
      uid: 1000, appID: "com.example.siri", payload: Array("pay 5 EUR".utf8), expiresAt: now + 60,
      now: now)
    #expect(id.count == 32)
    let pending = try store.pendingHandoffs(uid: 1000, now: now)
    #expect(pending.map(\.id) == [id])
    #expect(pending.first?.payload == Array("pay 5 EUR".utf8))
    #expect(pending.first?.isAuthorized == false)
    #expect(try store.pendingHandoffs(uid: 1001, now: now).isEmpty)

    #expect(throws: RightStoreError.notAuthorized) {
      try store.redeemHandoff(id: id, uid: 1000, now: now)
    }
    try store.authorizeHandoff(id: id, uid: 1000, now: now + 1)
    #expect(try store.pendingHandoffs(uid: 1000, now: now + 2).first?.isAuthorized == true)
    #expect(try store.redeemHandoff(id: id, uid: 1000, now: now + 2) == Array("pay 5 EUR".utf8))
    #expect(throws: RightStoreError.alreadyRedeemed) {
      try store.redeemHandoff(id: id, uid: 1000, now: now + 3)
    }
    #expect(throws: RightStoreError.alreadyRedeemed) {
      try store.authorizeHandoff(id: id, uid: 1000, now: now + 3)
    }
    #expect(try store.pendingHandoffs(uid: 1000, now: now + 3).isEmpty)
  }

  @Test("Foreign and unknown ids are notFound")
  func foreignIsNotFound() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let id = try store.createHandoff(
      uid: 1000, appID: "a", payload: [1], expiresAt: now + 60, now: now)
    #expect(throws: RightStoreError.notFound) {
      try store.authorizeHandoff(id: id, uid: 1001, now: now)
    }
    try store.authorizeHandoff(id: id, uid: 1000, now: now)
    #expect(throws: RightStoreError.notFound) {
      try store.redeemHandoff(id: id, uid: 1001, now: now)
    }
    #expect(throws: RightStoreError.notFound) {
      try store.redeemHandoff(id: "00", uid: 1000, now: now)
    }
    #expect(try store.redeemHandoff(id: id, uid: 1000, now: now) == [1])
  }

  @Test("Expired handoffs can be neither authorized nor redeemed")
  func expiredFails() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let authorized = try store.createHandoff(
      uid: 1000, appID: "a", payload: [1], expiresAt: now + 10, now: now)
    try store.authorizeHandoff(id: authorized, uid: 1000, now: now + 5)
    let unauthorized = try store.createHandoff(
      uid: 1000, appID: "a", payload: [2], expiresAt: now + 10, now: now)
    #expect(throws: RightStoreError.expired) {
      try store.redeemHandoff(id: authorized, uid: 1000, now: now + 10)
    }
    #expect(throws: RightStoreError.expired) {
      try store.authorizeHandoff(id: unauthorized, uid: 1000, now: now + 11)
    }
    #expect(try store.pendingHandoffs(uid: 1000, now: now + 10).isEmpty)
  }

  @Test("A redeemed handoff stays redeemed after reopening the store")
  func redeemedSurvivesReopen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = try directory.openStore()
    let id = try first.createHandoff(
      uid: 1000, appID: "a", payload: [7], expiresAt: now + 60, now: now)
    let pending = try first.createHandoff(
      uid: 1000, appID: "a", payload: [8], expiresAt: now + 60, now: now)
    try first.authorizeHandoff(id: id, uid: 1000, now: now)
    try first.authorizeHandoff(id: pending, uid: 1000, now: now)
    #expect(try first.redeemHandoff(id: id, uid: 1000, now: now) == [7])

    let reopened = try directory.openStore()
    #expect(throws: RightStoreError.alreadyRedeemed) {
      try reopened.redeemHandoff(id: id, uid: 1000, now: now)
    }
    #expect(try reopened.redeemHandoff(id: pending, uid: 1000, now: now) == [8])
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    #expect(
      try raw.query("SELECT length(payload) FROM handoffs WHERE redeemed_at_ms IS NOT NULL") == [
        ["0"], ["0"],
      ])
  }

  @Test("Concurrent redemptions of one handoff succeed exactly once")
  func concurrentRedeemOnce() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let stores = try (0..<4).map { _ in try directory.openStore() }
    let now = self.now
    let id = try stores[0].createHandoff(
      uid: 1000, appID: "a", payload: [5], expiresAt: now + 60, now: now)
    try stores[0].authorizeHandoff(id: id, uid: 1000, now: now)
    let successes = await withTaskGroup(of: Bool.self) { group in
      for store in stores {
        group.addTask { (try? store.redeemHandoff(id: id, uid: 1000, now: now)) != nil }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(successes == 1)
  }
}
