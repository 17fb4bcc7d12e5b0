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

  /// Hostile: another user's su for an account waits for that account's own running prompt
  /// (the owner's touch is meant for it); the owner's own sudo, or su for another account, still
  /// ends it.
  @Test func suForAnAccountDoesNotEndThatAccountsOwnPrompt() {
    let alicesApp = Preemption.Claim(isSystem: false, uid: 64_121, owner: 64_121)
    let bobsSuAlice = Preemption.Claim(isSystem: true, uid: 0, owner: 64_121, requester: 64_122)
    let alicesSudo = Preemption.Claim(isSystem: true, uid: 0, owner: 64_121, requester: 64_121)
    let bobsSudo = Preemption.Claim(isSystem: true, uid: 0, owner: 64_122, requester: 64_122)
    for overlap in [OverlapMode.queue, .preempt] {
      #expect(Preemption.reason(ending: alicesApp, for: bobsSuAlice, overlap: overlap) == nil)
      #expect(
        Preemption.reason(ending: alicesApp, for: alicesSudo, overlap: overlap)
          == "systemAuthentication")
      #expect(
        Preemption.reason(ending: alicesApp, for: bobsSudo, overlap: overlap)
          == "systemAuthentication")
    }
  }

  /// Hostile (issue 28): an account's own evaluation, a sudo or an app, ends a running one for
  /// that account that another uid requested; nobody else's does.
  @Test func theOwnersOwnEvaluationEndsAnotherUsersSuForHer() {
    let bobsSuAlice = Preemption.Claim(isSystem: true, uid: 0, owner: 64_121, requester: 64_122)
    let alicesSudo = Preemption.Claim(isSystem: true, uid: 0, owner: 64_121, requester: 64_121)
    let alicesApp = Preemption.Claim(isSystem: false, uid: 64_121, owner: 64_121)
    let carolsSuAlice = Preemption.Claim(isSystem: true, uid: 0, owner: 64_121, requester: 64_123)
    let bobsSudo = Preemption.Claim(isSystem: true, uid: 0, owner: 64_122, requester: 64_122)
    for overlap in [OverlapMode.queue, .preempt] {
      #expect(
        Preemption.reason(ending: bobsSuAlice, for: alicesSudo, overlap: overlap)
          == "ownerAuthentication")
      #expect(
        Preemption.reason(ending: bobsSuAlice, for: alicesApp, overlap: overlap)
          == "ownerAuthentication")
      #expect(Preemption.reason(ending: bobsSuAlice, for: carolsSuAlice, overlap: overlap) == nil)
      #expect(Preemption.reason(ending: bobsSuAlice, for: bobsSudo, overlap: overlap) == nil)
      #expect(Preemption.reason(ending: alicesSudo, for: bobsSuAlice, overlap: overlap) == nil)
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
