import LocalAuthProtocol
import Sensors
import Testing

@testable import LocalAuthBroker

/// `EvaluationRun`'s passcode stage and endings, driven with values: the prompt that cannot open,
/// guesses judged one by one, the back-off waited out before a try, and cancellation.
@Suite struct EvaluationRunPasscodeTests {
  static let alice = SensorOwner(uid: 64_111, name: "alice")
  static let passcode = StageSensor(name: "passcode", kind: .passcode)

  /// A deviceOwnerAuthentication run for alice, moved to its passcode stage (no biometry).
  func atThePasscode() -> EvaluationRun {
    var run = EvaluationRun(
      policy: .deviceOwnerAuthentication, system: nil, owner: Self.alice,
      fallbackButtonShown: true,
      rules: EvaluationRun.Rules(maxBiometricAttempts: 3, lockoutThreshold: 5))
    _ = run.start()
    #expect(run.biometryChecked(.unavailable(.biometryNotEnrolled)).next == .openPasscodePrompt)
    return run
  }

  /// Now, and alice's state with her back-off running until `notBefore`.
  func facts(now: Duration = .seconds(100), notBefore: Duration? = nil) -> RunFacts {
    var state = OwnerState(uid: Self.alice.uid)
    state.passcodeRetryNotBefore = notBefore
    return RunFacts(now: now, counted: state, owner: state)
  }

  /// A feedback effect about the passcode sensor.
  func feedback(_ what: String, attempt: Int, _ extra: JSONObject = [:]) -> RunEffect {
    .feedback(
      sensor: "passcode", what: what, attempt: attempt, details: FeedbackDetails(object: extra))
  }

  @Test func aWrongGuessIsFeedbackAndTheRightOneClearsTheOwner() {
    var run = atThePasscode()
    let opened = run.passcodePromptOpened(Self.passcode, answerable: true, facts())
    #expect(opened.effects == [.askForPasscode(sensor: "passcode")])
    #expect(opened.next == .capture(attempt: 1))
    #expect(run.captured(.passcode("0000"), facts()).next == .judge(.typed("0000")))
    let wrong = run.judged(.wrong(failures: 1), facts())
    #expect(wrong.effects == [feedback("wrongPasscode", attempt: 1, ["failures": .int(1)])])
    #expect(wrong.next == .capture(attempt: 2))
    #expect(run.captured(.match(identity: ""), facts()).next == .judge(.scripted(right: true)))
    let right = run.judged(.right, facts())
    #expect(right.effects == [.passcodeSucceeded(uid: Self.alice.uid)])
    #expect(right.next == .end(.success(sensor: "passcode")))
  }

  @Test func aPromptNobodyCanAnswerOrWithoutAPasscodeEndsAtOnce() {
    var nobody = atThePasscode()
    let refused = nobody.passcodePromptOpened(Self.passcode, answerable: false, facts())
    guard case .end(.failure(let code, let reason, let message)) = refused.next else {
      Issue.record("the run did not end: \(refused.next)")
      return
    }
    #expect(code == .notInteractive && reason == "noAgent")
    #expect(message?.contains("alice") == true)
    #expect(refused.effects.isEmpty, "nobody is asked for the passcode")
    var unset = atThePasscode()
    #expect(
      unset.passcodePromptOpened(nil, answerable: true, facts()).next
        == .end(.failure(.passcodeNotSet)))
  }

  @Test func theBackOffIsWaitedOutBeforeATryAndNotCheckedAgainAfter() {
    var run = atThePasscode()
    let opened = run.passcodePromptOpened(
      Self.passcode, answerable: true, facts(now: .seconds(100), notBefore: .seconds(130)))
    #expect(
      opened.effects == [
        .askForPasscode(sensor: "passcode"),
        feedback("passcodeDelay", attempt: 0, ["retryAfterSeconds": .int(30)]),
      ])
    #expect(opened.next == .waitOutDelay(until: .seconds(130)))
    #expect(run.delayEnded(cancelled: false).next == .capture(attempt: 1))
    // A guess the broker did not judge (the back-off began meanwhile) is feedback; the next try
    // waits again.
    let notJudged = run.judged(
      .notJudged(retryAfterSeconds: 60), facts(now: .seconds(131), notBefore: .seconds(191)))
    let delay = feedback("passcodeDelay", attempt: 1, ["retryAfterSeconds": .int(60)])
    #expect(notJudged.effects == [delay, delay])
    #expect(notJudged.next == .waitOutDelay(until: .seconds(191)))
    #expect(run.delayEnded(cancelled: true).next == .end(.failure(.userCancel)))
  }

  @Test func retriesAndAFallbackAtThePasscodeAreFeedbackAndADisconnectFails() {
    var run = atThePasscode()
    _ = run.passcodePromptOpened(Self.passcode, answerable: true, facts())
    let fallback = run.captured(.userFallback, facts())
    #expect(fallback.effects == [feedback("fallbackNotOffered", attempt: 1)])
    #expect(fallback.next == .capture(attempt: 2))
    #expect(
      run.captured(.disconnected, facts()).next
        == .end(.failure(.authenticationFailed, reason: "passcodeSensorDisconnected")))
  }

  @Test func cancellationIsAppCancelAndADriverFailureNamesItsReason() {
    var cancelled = atThePasscode()
    #expect(cancelled.cancelled() == .failure(.appCancel))
    #expect(cancelled.stage == .ended)
    var failed = atThePasscode()
    #expect(
      failed.sensorFailed(SensorFailure(.driverCrashed, "exit 9"))
        == .failure(
          .biometryNotAvailable, reason: "driverCrashed",
          message: "The sensor's driver failed: driverCrashed."))
    var notEnrolled = atThePasscode()
    #expect(
      notEnrolled.sensorFailed(SensorFailure(.notEnrolled, "none"))
        == .failure(.biometryNotEnrolled))
  }
}
