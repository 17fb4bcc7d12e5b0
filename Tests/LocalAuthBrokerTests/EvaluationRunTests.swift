import LocalAuthProtocol
import Sensors
import Testing

@testable import LocalAuthBroker

/// `EvaluationRun` on its own, driven with values (no broker, no sensor, no clock): the biometric
/// stage's limits and lockout, Face ID's wait for the fallback choice, the fall back to the
/// passcode, the passcode stage and its back-off, and how a run ends when cancelled or refused.
@Suite struct EvaluationRunTests {
  static let alice = SensorOwner(uid: 64_101, name: "alice")
  static let face = StageSensor(name: "face", kind: .faceID)
  static let finger = StageSensor(name: "finger", kind: .touchID)
  static let passcode = StageSensor(name: "passcode", kind: .passcode)
  static let watch = StageSensor(name: "watch", kind: .companion)

  /// A run of `policy` for alice (`requester` makes it a system evaluation); five failed matches
  /// in a row lock biometry out.
  func run(
    _ policy: Policy, requester: UInt32? = nil, fallbackButtonShown: Bool = true,
    maxBiometricAttempts: Int = 3
  ) -> EvaluationRun {
    EvaluationRun(
      policy: policy, system: requester.map { SystemRequest(requester: $0) }, owner: Self.alice,
      fallbackButtonShown: fallbackButtonShown,
      rules: EvaluationRun.Rules(
        maxBiometricAttempts: maxBiometricAttempts, lockoutThreshold: 5))
  }

  /// What the run reads: now, and fresh states (the counted uid's with `failures` failed matches).
  func facts(
    _ run: EvaluationRun, failures: Int = 0, now: Duration = .seconds(100),
    passcodeNotBefore: Duration? = nil
  ) -> RunFacts {
    var counted = OwnerState(uid: run.countsAgainst)
    counted.consecutiveBiometricFailures = failures
    var owner = run.countsAgainst == Self.alice.uid ? counted : OwnerState(uid: Self.alice.uid)
    owner.passcodeRetryNotBefore = passcodeNotBefore
    return RunFacts(now: now, counted: counted, owner: owner)
  }

  /// A run of `policy` in its biometric stage on `sensor`.
  func trying(
    _ policy: Policy, on sensor: StageSensor, requester: UInt32? = nil,
    fallbackButtonShown: Bool = true, maxBiometricAttempts: Int = 3
  ) -> EvaluationRun {
    var run = run(
      policy, requester: requester, fallbackButtonShown: fallbackButtonShown,
      maxBiometricAttempts: maxBiometricAttempts)
    #expect(run.start().next == .checkBiometry)
    #expect(run.biometryChecked(.ready(sensor)).next == .capture(attempt: 1))
    return run
  }

  /// A Face ID run of `policy` after its two failed matches, asking whether anyone can choose.
  func atTheChoice(_ policy: Policy) -> EvaluationRun {
    var run = trying(policy, on: Self.face)
    _ = run.captured(.noMatch, facts(run))
    #expect(run.captured(.noMatch, facts(run, failures: 1)).next == .checkChooser)
    return run
  }

  /// The feedback words of a step's effects, in order.
  func feedback(_ step: EvaluationStep) -> [String] {
    step.effects.compactMap {
      if case .feedback(_, let what, _, _) = $0 { return what }
      return nil
    }
  }

  /// The details of a step's last feedback, as the notification's members.
  func lastExtra(_ step: EvaluationStep) -> JSONObject? {
    for effect in step.effects.reversed() {
      if case .feedback(_, _, _, let details) = effect { return JSONObject(details.members) }
    }
    return nil
  }

  @Test func touchIDTakesTheConfiguredFailedMatchesThenFails() {
    var run = trying(.deviceOwnerAuthenticationWithBiometrics, on: Self.finger)
    var failures = 0
    for attempt in 1...2 {
      let step = run.captured(.noMatch, facts(run, failures: failures))
      failures += 1
      #expect(step.next == .capture(attempt: attempt + 1))
      #expect(feedback(step) == ["noMatch"])
      #expect(lastExtra(step) == ["offer": "fallback"], "Touch ID offers the fallback at once")
    }
    let last = run.captured(.noMatch, facts(run, failures: failures))
    #expect(last.next == .end(.failure(.authenticationFailed)))
    #expect(lastExtra(last) == ["attemptsExhausted": true])
    #expect(run.stage == .ended)
  }

  @Test func faceIDStopsAtTheSecondFailedMatchAndWaitsForTheChoice() {
    var run = trying(.deviceOwnerAuthentication, on: Self.face)
    let first = run.captured(.noMatch, facts(run))
    #expect(lastExtra(first) == ["offer": "tryAgain"], "Face ID offers the fallback at the second")
    let second = run.captured(.noMatch, facts(run, failures: 1))
    #expect(second.next == .checkChooser)
    #expect(feedback(second).isEmpty, "the feedback waits for whether anyone can choose")
    let asked = run.chooser(available: true)
    #expect(feedback(asked) == ["noMatch", "awaitingChoice"])
    #expect(asked.next == .awaitChoice(attempt: 2))
    // A face or a retry does not end the wait; the fallback button does.
    #expect(run.choiceMade(.match(identity: "alice")).next == .awaitChoice(attempt: 2))
    #expect(run.choiceMade(.retry(reason: .tooFast)).next == .awaitChoice(attempt: 2))
    let chosen = run.choiceMade(.userFallback)
    #expect(chosen.effects == [.fallbackToPasscode(reason: "userFallback")])
    #expect(chosen.next == .openPasscodePrompt)
  }

  @Test func aFaceIDChoiceNobodyCanMakeEndsAsExhaustedAttempts() {
    var run = atTheChoice(.deviceOwnerAuthenticationWithBiometrics)
    let nobody = run.chooser(available: false)
    #expect(feedback(nobody) == ["noMatch"])
    #expect(lastExtra(nobody) == ["attemptsExhausted": true])
    #expect(nobody.next == .end(.failure(.authenticationFailed)))

    var waiting = atTheChoice(.deviceOwnerAuthenticationWithBiometrics)
    _ = waiting.chooser(available: true)
    #expect(waiting.nobodyCanChoose().next == .end(.failure(.authenticationFailed)))
  }

  @Test func withoutAFallbackButtonFaceIDEndsAtItsSecondFailure() {
    var run = trying(.deviceOwnerAuthentication, on: Self.face, fallbackButtonShown: false)
    _ = run.captured(.noMatch, facts(run))
    let second = run.captured(.noMatch, facts(run, failures: 1))
    #expect(lastExtra(second) == ["attemptsExhausted": true])
    #expect(second.effects.last == .fallbackToPasscode(reason: "attemptsExhausted"))
    #expect(second.next == .openPasscodePrompt)
  }

  @Test func theFallbackButtonCountsOnlyOnceOffered() {
    var run = trying(.deviceOwnerAuthentication, on: Self.face)
    let early = run.captured(.userFallback, facts(run))
    #expect(feedback(early) == ["fallbackNotOffered"])
    #expect(early.next == .capture(attempt: 2))
    #expect(run.captured(.userCancel, facts(run)).next == .end(.failure(.userCancel)))
  }

  @Test func theLockoutThresholdLocksTheCountedOwnerOut() {
    var run = trying(.deviceOwnerAuthenticationWithBiometrics, on: Self.finger)
    let step = run.captured(.noMatch, facts(run, failures: 4))
    var locked = OwnerState(uid: Self.alice.uid)
    locked.consecutiveBiometricFailures = 5
    locked.biometryLockedOut = true
    #expect(step.effects.first == .ownerChanged(locked))
    #expect(step.effects.contains(.lockedOut(uid: Self.alice.uid, failures: 5)))
    #expect(lastExtra(step) == ["lockout": true])
    #expect(step.next == .end(.failure(.biometryLockout)))
  }

  @Test func aMatchClearsTheCountedFailuresAndWritesNothingWhenThereAreNone() {
    var run = trying(.deviceOwnerAuthenticationWithBiometrics, on: Self.finger)
    let clean = run.captured(.match(identity: "alice"), facts(run))
    #expect(clean.effects.isEmpty)
    #expect(clean.next == .end(.success(sensor: "finger")))

    var after = trying(.deviceOwnerAuthenticationWithBiometrics, on: Self.finger)
    let cleared = after.captured(.match(identity: "alice"), facts(after, failures: 2))
    #expect(cleared.effects == [.ownerChanged(OwnerState(uid: Self.alice.uid))])
  }

  @Test func aSystemEvaluationCountsAgainstTheRequesterAndNeverFallsBack() {
    let bob: UInt32 = 64_102
    var run = trying(
      .deviceOwnerAuthentication, on: Self.finger, requester: bob, maxBiometricAttempts: 1)
    #expect(run.countsAgainst == bob)
    let step = run.captured(.noMatch, facts(run))
    var counted = OwnerState(uid: bob)
    counted.consecutiveBiometricFailures = 1
    #expect(step.effects.first == .ownerChanged(counted), "bob's failure, never alice's")
    #expect(step.next == .end(.failure(.authenticationFailed)), "no passcode stage")
  }

  @Test func aSystemEvaluationLocksTheRequesterOutNeverTheOwner() {
    let bob: UInt32 = 64_102
    var run = trying(.deviceOwnerAuthentication, on: Self.finger, requester: bob)
    let step = run.captured(.noMatch, facts(run, failures: 4))
    var locked = OwnerState(uid: bob)
    locked.consecutiveBiometricFailures = 5
    locked.biometryLockedOut = true
    #expect(step.effects.first == .ownerChanged(locked))
    #expect(step.effects.contains(.lockedOut(uid: bob, failures: 5)))
    #expect(step.next == .end(.failure(.biometryLockout)), "no fall back to the passcode")
  }

  @Test func aSystemEvaluationIsRefusedOrNotAvailableButNeverAsksForThePasscode() {
    let refusal = RPCError(
      .biometryLockout, "Biometry is locked out for the requesting user.",
      data: ["reason": "requesterLockedOut"])
    var refused = run(.deviceOwnerAuthentication, requester: 64_102)
    _ = refused.start()
    #expect(refused.biometryChecked(.refused(refusal)).next == .end(.refused(refusal)))
    var unavailable = run(.deviceOwnerAuthentication, requester: 64_102)
    _ = unavailable.start()
    #expect(
      unavailable.biometryChecked(.unavailable(.biometryNotEnrolled)).next
        == .end(.failure(.biometryNotAvailable)))
  }

  @Test(arguments: [
    (Policy.deviceOwnerAuthenticationWithBiometrics, RunNext.end(.failure(.biometryNotEnrolled))),
    (.deviceOwnerAuthentication, .openPasscodePrompt),
    (.deviceOwnerAuthenticationWithBiometricsOrCompanion, .checkCompanion),
  ])
  func withoutBiometryEachPolicyGoesItsOwnWay(policy: Policy, next: RunNext) {
    var run = run(policy)
    _ = run.start()
    #expect(run.biometryChecked(.unavailable(.biometryNotEnrolled)).next == next)
  }

  @Test func theCompanionDecidesWithOneAnswer() {
    var run = run(.deviceOwnerAuthenticationWithCompanion)
    #expect(run.start().next == .checkCompanion)
    #expect(run.companionChecked(Self.watch).next == .capture(attempt: 1))
    let retry = run.captured(.retry(reason: .retryScan), facts(run))
    #expect(feedback(retry) == ["retryScan"])
    #expect(retry.next == .capture(attempt: 2))
    #expect(run.captured(.noMatch, facts(run)).next == .end(.failure(.authenticationFailed)))
    var gone = self.run(.deviceOwnerAuthenticationWithWristDetection)
    _ = gone.start()
    #expect(gone.companionChecked(nil).next == .end(.failure(.companionNotAvailable)))
  }
}
