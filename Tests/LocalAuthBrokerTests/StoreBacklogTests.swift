import Testing

@testable import LocalAuthBroker

/// Admission to the store's queue: a per-uid share, a total, and nothing lost on release.
@Suite struct StoreBacklogTests {
  var limits: StoreLimits {
    var limits = StoreLimits()
    limits.maxRequestsPerUID = 2
    limits.maxRequests = 3
    return limits
  }

  @Test func oneUIDGetsItsShareAndNoMore() {
    var backlog = StoreBacklog()
    #expect(backlog.admit(uid: 1000, limits: limits) == nil)
    #expect(backlog.admit(uid: 1000, limits: limits) == nil)
    #expect(backlog.admit(uid: 1000, limits: limits)?.key == StoreLimits.Key.maxRequestsPerUID)
    #expect(backlog.admit(uid: 1001, limits: limits) == nil, "another uid is still admitted")
    #expect(backlog.admit(uid: 1002, limits: limits)?.key == StoreLimits.Key.maxRequests)
    #expect(backlog.total == 3)
    backlog.release(uid: 1000)
    #expect(backlog.admit(uid: 1002, limits: limits) == nil)
  }

  @Test func forcedAdmissionsCountAndReleaseToZero() {
    var backlog = StoreBacklog()
    for _ in 0..<2 { #expect(backlog.admit(uid: 7, limits: limits) == nil) }
    #expect(backlog.admit(uid: 7, limits: limits, force: true) == nil)
    #expect(backlog.total == 3 && backlog.perUID[7] == 3)
    for _ in 0..<3 { backlog.release(uid: 7) }
    backlog.release(uid: 7)  // an extra release changes nothing
    #expect(backlog.total == 0 && backlog.perUID.isEmpty)
  }
}
