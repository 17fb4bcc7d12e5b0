import Testing

@testable import LocalAuthBroker

/// `Preemption` on its own: who ends the running evaluation, and with which reason.
@Suite struct PreemptionTests {
  static let app = Preemption.Claim(isSystem: false, uid: 64_121)
  static let sameUserApp = Preemption.Claim(isSystem: false, uid: 64_121)
  static let otherUserApp = Preemption.Claim(isSystem: false, uid: 64_122)
  static let sudo = Preemption.Claim(isSystem: true, uid: 0)

  @Test func aSystemEvaluationEndsARunningAppOneAndIsNeverEnded() {
    for overlap in [OverlapMode.queue, .preempt] {
      #expect(
        Preemption.reason(ending: Self.app, for: Self.sudo, overlap: overlap)
          == "systemAuthentication")
      #expect(Preemption.reason(ending: Self.sudo, for: Self.sudo, overlap: overlap) == nil)
      #expect(Preemption.reason(ending: Self.sudo, for: Self.app, overlap: overlap) == nil)
    }
  }

  @Test func overlapPreemptEndsOnlyTheSameUsersAppEvaluation() {
    #expect(
      Preemption.reason(ending: Self.app, for: Self.sameUserApp, overlap: .preempt)
        == "canceledByAnotherAuthentication")
    #expect(Preemption.reason(ending: Self.app, for: Self.otherUserApp, overlap: .preempt) == nil)
    #expect(Preemption.reason(ending: Self.app, for: Self.sameUserApp, overlap: .queue) == nil)
  }
}
