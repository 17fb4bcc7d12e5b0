import Foundation
import LocalAuthProtocol
import LocalAuthServer
import RightStore
import RightsStorage
import Testing

@testable import LocalAuthBroker

/// The rights book's way to the store, with values: admission at its limits, every size and
/// lifetime limit at its edge, the store's failures as the wire sees them, and handoff tokens
/// living and dying at the instants they are given (a store in a temporary directory, no daemon).
@Suite struct RightsBookStoreTests {
  static func lane(_ directory: TemporaryStateDirectory?, unavailable: String? = nil) -> StoreLane {
    StoreLane(
      store: directory?.store, unavailable: unavailable,
      worker: StoreWorker(thread: DispatchWorkerThread(label: "test.store")), log: SilentLog())
  }

  // MARK: Admission

  @Test func admissionStopsAtEachLimitAndReleaseReopensIt() throws {
    var limits = StoreLimits()
    limits.maxRequestsPerUID = 2
    limits.maxRequests = 3
    var book = RightsBook(lane: Self.lane(nil))
    try book.admit(uid: 1000, limits: limits)
    try book.admit(uid: 1000, limits: limits)
    let mine = #expect(throws: RPCError.self) { try book.admit(uid: 1000, limits: limits) }
    #expect(mine?.code == .queueFull && mine?.data["reason"] == "storeBusy")
    #expect(mine?.data["limit"] == "MaxStoreRequestsPerUID" && mine?.data["max"] == 2)
    try book.admit(uid: 1001, limits: limits)
    let everyone = #expect(throws: RPCError.self) { try book.admit(uid: 1002, limits: limits) }
    #expect(everyone?.data["limit"] == "MaxStoreRequests" && everyone?.data["max"] == 3)
    book.admitFollowUp(uid: 1000, limits: limits)
    #expect(book.backlog.total == 4, "a follow-up is never refused, still counted")
    book.release(uid: 1000)
    book.release(uid: 1000)
    try book.admit(uid: 1002, limits: limits)
  }

  // MARK: Limits at their edges

  @Test func identifiersUpToTheLimitWithoutNUL() throws {
    let longest = String(repeating: "é", count: RightsBook.maxIdentifierBytes / 2)
    #expect(try RightsBook.identifier(LoadRightRequest.Params(identifier: longest)) == longest)
    for bad in [longest + "x", "a\u{0}b"] {
      let error = #expect(throws: RPCError.self) {
        try RightsBook.identifier(LoadRightRequest.Params(identifier: bad))
      }
      #expect(error?.code == .invalidParams && error?.data["field"] == "identifier")
    }
  }

  @Test func secretsAndPayloadsUpToTheirLimits() throws {
    var limits = StoreLimits()
    limits.maxSecretBytes = 4
    limits.maxHandoffPayloadBytes = 3
    func save(_ bytes: Int) -> SaveRightRequest.Params {
      SaveRightRequest.Params(
        right: "r", identifier: "i", secret: Array(repeating: 7, count: bytes))
    }
    #expect(try RightsBook.secret(save(4), limits: limits)?.count == 4)
    let secret = #expect(throws: RPCError.self) { try RightsBook.secret(save(5), limits: limits) }
    #expect(secret?.data["limit"] == "MaxSecretBytes" && secret?.data["field"] == "secret")

    let fits = HandoffCreateRequest.Params(payload: [1, 2, 3], ttl: 60)
    #expect(try RightsBook.handoffTerms(fits, limits: limits) == ([1, 2, 3], 60))
    let large = #expect(throws: RPCError.self) {
      try RightsBook.handoffTerms(
        HandoffCreateRequest.Params(payload: [1, 2, 3, 4], ttl: 60), limits: limits)
    }
    #expect(large?.data["limit"] == "MaxHandoffPayloadBytes" && large?.data["max"] == 3)
  }

  @Test func handoffLifetimesWithinTheirBounds() throws {
    var limits = StoreLimits()
    limits.minHandoffTTLSeconds = 5
    limits.maxHandoffTTLSeconds = 10
    func terms(_ ttl: Int) throws(RPCError) -> Int {
      try RightsBook.handoffTerms(
        HandoffCreateRequest.Params(payload: [1], ttl: ttl), limits: limits
      )
      .ttl
    }
    #expect(try terms(5) == 5 && terms(10) == 10)
    let short = #expect(throws: RPCError.self) { try terms(4) }
    let long = #expect(throws: RPCError.self) { try terms(11) }
    #expect(short?.data["limit"] == "MinHandoffTTLSec" && short?.data["field"] == "ttl")
    #expect(long?.data["limit"] == "MaxHandoffTTLSec")
    let missing = #expect(throws: RPCError.self) {
      try RightsBook.handoffTerms(
        HandoffCreateRequest.Params(object: ["payload": "AQ=="]), limits: limits)
    }
    #expect(missing?.message == "Invalid params: 'ttl' is required (seconds, 5…10).")
    let nul = #expect(throws: RPCError.self) {
      try RightsBook.handoffID(HandoffRedeemRequest.Params(handoff: "h\u{0}"))
    }
    #expect(nul?.data["field"] == "handoff")
  }

  // MARK: Store failures

  @Test func storeFailuresAsTheWireSeesThem() {
    // notFound and alreadyExists are what the client turns into errSecItemNotFound (-25300) and
    // errSecDuplicateItem (-25299).
    let missing = StoreFailure.error(RightStoreError.notFound)
    #expect(missing.code == .notFound && missing.message == StoreFailure.noSuchRight)
    #expect(StoreFailure.error(RightStoreError.notFound, notFound: "gone").message == "gone")
    let taken = StoreFailure.error(RightStoreError.alreadyExists)
    #expect(taken.code == .alreadyExists && taken.data["field"] == "identifier")
    let quota = StoreFailure.error(RightStoreError.limitReached(.savedRightsPerUID, 2))
    #expect(quota.code == .limitExceeded && quota.data["reason"] == "tooManySavedRights")
    #expect(quota.data["limit"] == "MaxSavedRightsPerUID" && quota.data["max"] == 2)
    #expect(StoreFailure.error(RightStoreError.invalidArgument("x")).code == .invalidParams)
    let broken = StoreFailure.error(RightStoreError.corrupt("bad row"))
    #expect(broken.code == .internalError && broken.data["reason"] == "storeFailure")
    #expect(StoreFailure.handoffError(RightStoreError.notFound).message == "No such handoff.")
    #expect(StoreFailure.handoffError(RightStoreError.expired).data["reason"] == "expired")
    #expect(StoreFailure.handoffError(RightStoreError.notAuthorized).code == .authenticationFailed)
  }

  @Test func aMissingStoreIsNamedWhy() async {
    let none = #expect(throws: RPCError.self) { try Self.lane(nil).checkedStore() }
    #expect(none?.data["reason"] == "storeUnavailable")
    let broken = #expect(throws: RPCError.self) {
      try Self.lane(nil, unavailable: "device key missing").checkedStore()
    }
    #expect(broken?.data["reason"] == "rightsUnavailable")
    await #expect(throws: RPCError.self) { try await Self.lane(nil).run { _ in 1 } }
  }

  @Test func aTakenIdentifierAndAMissingRowThroughTheLane() async throws {
    let directory = try TemporaryStateDirectory()
    let lane = Self.lane(directory)
    let owner = Owner(uid: 1000, appID: "app")
    let save: @Sendable (any RightsStorage) throws -> PersistedRightRecord = { store in
      try store.saveRight(
        owner: owner, identifier: "vault", requirement: "default", domainStateHash: nil,
        secret: nil, maxRightsPerUID: .max)
    }
    _ = try await lane.run(save)
    await #expect(throws: StoreFailure.error(RightStoreError.alreadyExists)) {
      try await lane.run(save)
    }
    let other = Owner(uid: 1001, appID: "app")
    let found = try await lane.run { store in try store.right(owner: other, identifier: "vault") }
    #expect(found == nil, "another uid's row does not exist for it")
    let record = try #require(
      try await lane.run { store in try store.right(owner: owner, identifier: "vault") })
    #expect(
      try await lane.run { store in try store.removeRight(owner: owner, identifier: "vault") })
    await #expect(throws: StoreFailure.error(RightStoreError.notFound, notFound: "removed")) {
      try await lane.run(notFound: "removed") { store in try store.privateKey(for: record) }
    }
  }

  // MARK: Handoff tokens

  /// The instant the handoff tests start at.
  static let start = Date(timeIntervalSince1970: 2_000_000_000)

  /// A lane over a fresh store holding one handoff (payload 42) of uid 1000's app "creator",
  /// made at `start`.
  private func laneWithHandoff(ttl: Int, maxPerUID: Int) async throws -> (
    TemporaryStateDirectory, StoreLane, id: String, expiresAt: Date
  ) {
    let directory = try TemporaryStateDirectory()
    let lane = Self.lane(directory)
    let (id, expiresAt) = try await lane.createHandoff(
      uid: 1000, appID: "creator", payload: [42], ttl: ttl, now: Self.start, maxPerUID: maxPerUID)
    return (directory, lane, id, expiresAt)
  }

  @Test func aHandoffLivesUntilItsExpiryAndIsRedeemedOnceByItsCreator() async throws {
    let (directory, lane, id, expiresAt) = try await laneWithHandoff(ttl: 10, maxPerUID: 1)
    defer { withExtendedLifetime(directory) {} }
    let start = Self.start
    #expect(expiresAt == start.addingTimeInterval(10))
    let full = await #expect(throws: RPCError.self) {
      _ = try await lane.createHandoff(
        uid: 1000, appID: "creator", payload: [1], ttl: 10, now: start, maxPerUID: 1)
    }
    #expect(full?.data["reason"] == "tooManyHandoffs")

    let early = await #expect(throws: RPCError.self) {
      _ = try await lane.redeemHandoff(id: id, uid: 1000, appID: "creator", now: start)
    }
    #expect(early?.data["reason"] == "notAuthorized")
    #expect(try await lane.liveHandoff(id: id, uid: 1000, now: start).id == id)
    let foreign = await #expect(throws: RPCError.self) {
      _ = try await lane.liveHandoff(id: id, uid: 1001, now: start)
    }
    #expect(foreign?.code == .notFound)
    try await lane.authorizeHandoff(id: id, uid: 1000, now: start.addingTimeInterval(9))
    #expect(try await lane.pendingHandoffs(uid: 1000, now: start).map(\.isAuthorized) == [true])

    let otherApp = await #expect(throws: RPCError.self) {
      _ = try await lane.redeemHandoff(id: id, uid: 1000, appID: "other", now: start)
    }
    #expect(otherApp?.code == .notFound)
    #expect(try await lane.redeemHandoff(id: id, uid: 1000, appID: "creator", now: start) == [42])
    let twice = await #expect(throws: RPCError.self) {
      _ = try await lane.redeemHandoff(id: id, uid: 1000, appID: "creator", now: start)
    }
    #expect(twice?.data["reason"] == "alreadyRedeemed")
  }

  @Test func anExpiredHandoffCanNeitherBeAuthorizedNorRedeemed() async throws {
    let (directory, lane, id, _) = try await laneWithHandoff(ttl: 1, maxPerUID: 8)
    defer { withExtendedLifetime(directory) {} }
    try await lane.authorizeHandoff(id: id, uid: 1000, now: Self.start)
    let lastMoment = Self.start.addingTimeInterval(0.999)
    #expect(try await lane.liveHandoff(id: id, uid: 1000, now: lastMoment).id == id)
    let after = Self.start.addingTimeInterval(1)
    let lookup = await #expect(throws: RPCError.self) {
      _ = try await lane.liveHandoff(id: id, uid: 1000, now: after)
    }
    #expect(lookup?.code == .invalidContext && lookup?.data["reason"] == "expired")
    let mark = await #expect(throws: RPCError.self) {
      try await lane.authorizeHandoff(id: id, uid: 1000, now: after)
    }
    #expect(mark?.data["reason"] == "expired")
    let redeem = await #expect(throws: RPCError.self) {
      _ = try await lane.redeemHandoff(id: id, uid: 1000, appID: "creator", now: after)
    }
    #expect(redeem?.data["reason"] == "expired", "authorized in time, redeemed too late")
    #expect(try await lane.pendingHandoffs(uid: 1000, now: after).isEmpty)
  }
}
