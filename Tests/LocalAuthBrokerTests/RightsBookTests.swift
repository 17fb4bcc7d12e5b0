import LocalAuthProtocol
import LocalAuthServer
import Testing

@testable import LocalAuthBroker

/// The rights book on its own, with values: each connection's handles and their limit, and the
/// authorize/deauthorize transitions with the state changes the broker tells.
@Suite struct RightsBookTests {
  /// A book with no store (the handles and transitions never touch it).
  static func book() -> RightsBook {
    RightsBook(
      lane: StoreLane(
        store: nil, unavailable: nil,
        worker: StoreWorker(thread: DispatchWorkerThread(label: "test.store")), log: SilentLog()))
  }

  static func right(_ requirement: RightRequirement = .default, bound: String? = nil) -> AuthRight {
    AuthRight(
      id: "right-" + makeUUID(from: SystemRandomSource()).lowercased(), requirement: requirement,
      boundDomainState: bound)
  }

  static let success = EvaluationOutcome.success(
    EvaluationSuccess(
      requestID: "R1", policy: .deviceOwnerAuthentication, sensor: "face", reused: false))

  // MARK: Handles

  @Test func aConnectionHoldsUpToItsLimitAndNoMore() throws {
    var book = Self.book()
    for _ in 0..<3 { try book.register(Self.right(), for: 1, limit: 3) }
    let refused = #expect(throws: RPCError.self) {
      try book.register(Self.right(), for: 1, limit: 3)
    }
    #expect(refused?.code == .limitExceeded)
    #expect(refused?.data["limit"] == "MaxRightsPerConnection")
    #expect(refused?.data["max"] == 3)
    #expect(book.count(of: 1) == 3)
    try book.register(Self.right(), for: 2, limit: 3)
    #expect(book.count(of: 2) == 1, "another connection has its own count")
  }

  @Test func anotherConnectionsHandleLooksLikeNone() throws {
    var book = Self.book()
    let right = Self.right()
    try book.register(right, for: 1, limit: 8)
    #expect(try book.right(right.id, of: 1) === right)
    let foreign = #expect(throws: RPCError.self) { try book.right(right.id, of: 2) }
    let unknown = #expect(throws: RPCError.self) { try book.right("right-x", of: 1) }
    #expect(foreign?.code == .notFound && unknown?.code == .notFound)
    #expect(foreign?.data["field"] == "right")
  }

  @Test func forgettingAndDroppingFreeTheHandles() throws {
    var book = Self.book()
    let (kept, forgotten) = (Self.right(), Self.right())
    try book.register(kept, for: 1, limit: 8)
    try book.register(forgotten, for: 1, limit: 8)
    book.forget(forgotten.id, of: 1)
    #expect(book.rights(of: 1).map(\.id) == [kept.id])
    #expect(book.holders == [1])
    _ = book.finishAuthorization(kept, Self.success) { nil }
    book.authorizing(kept, requestID: "R2")
    book.dropAll(of: 1)
    #expect(kept.state == RightStateName.notAuthorized && kept.authorizing == nil)
    #expect(book.count(of: 1) == 0 && book.holders.isEmpty)
  }

  // MARK: Authorization

  @Test func authorizeThenDeauthorize() throws {
    let book = Self.book()
    let right = Self.right()
    #expect(right.state == RightStateName.unknown)
    let begun = book.beginAuthorization(right) { nil }
    #expect(begun.change == RightStateChange(right: right.id, state: RightStateName.authorizing))
    #expect(try begun.step.get() == .evaluate(previous: RightStateName.unknown))
    book.authorizing(right, requestID: "R1")

    let again = book.beginAuthorization(right) { nil }
    #expect(again.change == nil)
    #expect(throws: RPCError.self) { try again.step.get() }
    if case .failure(let busy) = again.step {
      #expect(busy.code == .alreadyInProgress && busy.data["requestID"] == "R1")
    }

    let finished = book.finishAuthorization(right, Self.success) { nil }
    #expect(finished.change?.state == RightStateName.authorized)
    #expect(finished.result == Self.success && right.authorizing == nil)
    let authorized = book.beginAuthorization(right) { nil }
    #expect(authorized.change == nil)
    #expect(try authorized.step.get() == .authorized)

    #expect(book.deauthorize(right)?.state == RightStateName.notAuthorized)
    #expect(book.deauthorize(right) == nil, "no change, nothing to tell")
  }

  @Test func aFailedOrAbandonedAuthorizationLeavesTheRightAsItSays() {
    let book = Self.book()
    let right = Self.right()
    _ = book.beginAuthorization(right) { nil }
    #expect(book.abandonAuthorization(right, previous: RightStateName.unknown)?.state == "unknown")
    _ = book.beginAuthorization(right) { nil }
    let canceled = RPCError(.userCancel)
    let failed = book.finishAuthorization(right, .failure(canceled)) { nil }
    #expect(failed.change?.state == RightStateName.notAuthorized)
    #expect(failed.result == .failure(canceled))
  }

  @Test func keyUseNeedsAPersistedAuthorizedRight() throws {
    let book = Self.book()
    let right = Self.right()
    let plain = #expect(throws: RPCError.self) { try book.persisted(right) }
    #expect(plain?.code == .invalidParams && plain?.data["field"] == "right")
    let unauthorized = #expect(throws: RPCError.self) {
      try book.checkAuthorized(right) { nil }
    }
    #expect(unauthorized?.code == .authenticationFailed)
    #expect(unauthorized?.data["reason"] == "notAuthorized")
    _ = book.finishAuthorization(right, Self.success) { nil }
    try book.checkAuthorized(right) { nil }
  }

  // MARK: biometryCurrentSet

  @Test func aChangedEnrolledSetEndsACurrentSetRightForGood() throws {
    let book = Self.book()
    let right = Self.right(.biometryCurrentSet, bound: "A")
    _ = book.finishAuthorization(right, Self.success) { "A" }
    #expect(right.isAuthorized)
    #expect(book.revalidate(right) { "A" } == nil)
    #expect(book.revalidate(right) { "B" }?.state == RightStateName.notAuthorized)

    let begun = book.beginAuthorization(right) { "B" }
    #expect(begun.change == nil, "already notAuthorized")
    guard case .failure(let error) = begun.step else {
      Issue.record("a changed set must refuse the authorization")
      return
    }
    #expect(error.code == .invalidContext && error.data["reason"] == "biometrySetChanged")
    let check = #expect(throws: RPCError.self) { try book.checkEnrolledSet(right) { "B" } }
    #expect(check?.code == .invalidContext)
    let use = #expect(throws: RPCError.self) { try book.checkAuthorized(right) { "B" } }
    #expect(use?.data["reason"] == "biometrySetChanged")

    let neverAuthorized = Self.right(.biometryCurrentSet, bound: "A")
    #expect(
      book.revalidate(neverAuthorized) { "B" } == nil, "revalidation drops only authorizations")
    #expect(neverAuthorized.state == RightStateName.unknown)

    let changedDuringThePrompt = Self.right(.biometryCurrentSet, bound: "A")
    let finished = book.finishAuthorization(changedDuringThePrompt, Self.success) { "B" }
    #expect(finished.change?.state == RightStateName.notAuthorized)
    #expect(finished.result == .failure(book.enrolledSetChangedError(changedDuringThePrompt)))
  }

  @Test func anUnboundCurrentSetRightBindsAtItsFirstAuthorization() {
    let book = Self.book()
    let right = Self.right(.biometryCurrentSet)
    #expect(book.setToSave(right) { "now" } == "now")
    _ = book.finishAuthorization(right, Self.success) { "A" }
    #expect(right.boundDomainState == "A")
    #expect(book.setToSave(right) { "now" } == "A")
    #expect(book.setToSave(Self.right(.biometry(fallback: .none))) { "now" } == nil)
    #expect(
      Self.right(.default, bound: "A").boundDomainState == nil, "only current-set rights bind")
  }
}
