import LocalAuthProtocol
import Sensors

/// The policy engine: one running evaluation's state machine, per docs/protocol.md, "Evaluation
/// semantics". Told what happened (a sensor's availability, a capture event, a passcode verdict),
/// it decides the next step — biometric stage, fallback choice, passcode stage, companion, outcome
/// — and returns it with its effects as values (`EvaluationStep`). It does no I/O and never waits:
/// the broker looks facts up, waits for captures and carries the effects out
/// (`Broker+EvaluationRun.swift`, `Broker+Captures.swift`). A change to what a policy does goes
/// here, or in its stages' files (`EvaluationRun+Passcode.swift`, `EvaluationRun+Companion.swift`).
struct EvaluationRun {
  /// Where the run is.
  enum Stage: Equatable {
    /// Before a stage's sensor is found: at the start, and falling back to the passcode.
    case betweenStages
    /// Trying to match on the biometric sensor.
    case biometric
    /// Face ID stopped trying after its last allowed failed match and waits for the fallback
    /// choice or Cancel.
    case choosing
    /// Asking for the passcode.
    case passcode
    /// Waiting for the companion's approval.
    case companion
    /// The run returned its ending.
    case ended
  }

  /// The settings the run follows, from `BrokerConfiguration`.
  struct Rules: Equatable {
    /// `MaxBiometricAttempts=`: failed matches one prompt takes (Face ID: at most two).
    var maxBiometricAttempts: Int
    /// `LockoutThreshold=`: consecutive failed matches that lock biometry out.
    var lockoutThreshold: Int
  }

  /// The policy evaluated.
  let policy: Policy
  /// A system evaluation: biometric-only, on the owner's identities, failed matches counted
  /// against the requester.
  let system: SystemRequest?
  /// Whose presence is asked for.
  let owner: SensorOwner
  /// Whether the context shows the fallback button.
  let fallbackButtonShown: Bool
  let rules: Rules
  /// Where the run is.
  private(set) var stage = Stage.betweenStages
  /// The sensor of the current stage.
  private(set) var sensor: StageSensor?
  /// The current stage's attempt (1 for its first capture).
  private(set) var attempt = 0
  /// Failed matches in the biometric stage.
  private(set) var failures = 0

  /// A run about to start.
  init(
    policy: Policy, system: SystemRequest?, owner: SensorOwner, fallbackButtonShown: Bool,
    rules: Rules
  ) {
    self.policy = policy
    self.system = system
    self.owner = owner
    self.fallbackButtonShown = fallbackButtonShown
    self.rules = rules
  }

  /// Whose failed matches and lockout this run counts: the requester's for a system evaluation
  /// (su B run by A locks A out, never B), else the owner's.
  var countsAgainst: UInt32 { system?.requester ?? owner.uid }

  /// The first step: check the sensor the policy tries first.
  mutating func start() -> EvaluationStep {
    precondition(stage == .betweenStages && sensor == nil, "an evaluation run starts once")
    if system != nil { return EvaluationStep(next: .checkBiometry) }
    switch policy {
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return EvaluationStep(next: .checkCompanion)
    case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthentication,
      .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      return EvaluationStep(next: .checkBiometry)
    }
  }

  /// Biometry's availability, as asked for by `checkBiometry`: its stage starts, or the policy
  /// goes on without it (the passcode, the companion) or ends.
  mutating func biometryChecked(_ check: BiometryCheck) -> EvaluationStep {
    precondition(stage == .betweenStages, "biometry is checked at the start")
    let code: ErrorCode
    switch check {
    case .ready(let sensor):
      stage = .biometric
      self.sensor = sensor
      failures = 0
      attempt = 1
      return EvaluationStep(next: .capture(attempt: attempt))
    case .refused(let refusal): return end(.refused(refusal))
    case .unavailable(let unavailable): code = unavailable
    }
    if system != nil { return end(.failure(.biometryNotAvailable)) }
    switch policy {
    case .deviceOwnerAuthentication: return EvaluationStep(next: .openPasscodePrompt)
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      return EvaluationStep(next: .checkCompanion)
    case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithCompanion,
      .deviceOwnerAuthenticationWithWristDetection:
      return end(.failure(code))
    }
  }

  /// The companion's availability, as asked for by `checkCompanion` (nil: none in reach).
  mutating func companionChecked(_ companion: StageSensor?) -> EvaluationStep {
    precondition(stage == .betweenStages, "the companion is checked at the start")
    guard let companion else { return end(.failure(.companionNotAvailable)) }
    stage = .companion
    sensor = companion
    attempt = 1
    return EvaluationStep(next: .capture(attempt: attempt))
  }

  /// A capture event (a presentation, or the person's answer from the agent) in the current stage.
  mutating func captured(_ event: CaptureEvent, _ facts: RunFacts) -> EvaluationStep {
    switch stage {
    case .biometric: return biometricCaptured(event, facts)
    case .passcode: return passcodeCaptured(event, facts)
    case .companion: return companionCaptured(event)
    case .betweenStages, .choosing, .ended:
      preconditionFailure("a capture event arrived in stage \(stage)")
    }
  }

  /// Whether anyone can answer a wait for the fallback choice, as asked for by `checkChooser`.
  mutating func chooser(available: Bool) -> EvaluationStep {
    precondition(stage == .choosing, "the chooser is checked at Face ID's last failed match")
    let details = FeedbackDetails(attemptsExhausted: true, offer: available ? "fallback" : nil)
    var effects = [feedback("noMatch", details)]
    guard available else { return biometricEnded(.attemptsExhausted, effects) }
    effects.append(feedback("awaitingChoice", FeedbackDetails(offer: "fallback")))
    return EvaluationStep(effects: effects, next: .awaitChoice(attempt: attempt))
  }

  /// The person's answer while the prompt waits for the fallback choice: only the fallback
  /// button, Cancel or the sensor going away end the wait.
  mutating func choiceMade(_ event: CaptureEvent) -> EvaluationStep {
    precondition(stage == .choosing, "a choice is made while waiting for it")
    switch event {
    case .userFallback: return biometricEnded(.fallbackChosen, [])
    case .userCancel: return biometricEnded(.cancelled, [])
    case .disconnected: return biometricEnded(.disconnected, [])
    case .match, .noMatch, .passcode, .retry:
      return EvaluationStep(next: .awaitChoice(attempt: attempt))
    }
  }

  /// Nobody can answer the wait for the fallback choice any more (no agent, no scripted choice):
  /// the prompt ends as exhausted attempts do.
  mutating func nobodyCanChoose() -> EvaluationStep {
    precondition(stage == .choosing, "nobody can choose while waiting for the choice")
    return biometricEnded(.attemptsExhausted, [])
  }

  /// The evaluation's task was cancelled (cancel, invalidate, a disconnect, a preemption): it ends
  /// with appCancel (whoever cancelled has already answered with their own outcome).
  mutating func cancelled() -> RunEnding {
    stage = .ended
    return .failure(.appCancel)
  }

  /// The driver failed mid-capture (crash, hang, garbage, service gone, busy):
  /// `biometryNotAvailable` with the failure's reason; `biometryNotEnrolled` when the service found
  /// no enrolled identity for the owner.
  mutating func sensorFailed(_ failure: SensorFailure) -> RunEnding {
    stage = .ended
    if failure.reason == .notEnrolled { return .failure(.biometryNotEnrolled) }
    return .failure(
      .biometryNotAvailable, reason: failure.reason.rawValue,
      message: "The sensor's driver failed: \(failure.reason.rawValue).")
  }

  // MARK: The biometric stage

  /// The Face ID / Touch ID prompt: up to the allowed failed matches (Face ID two, then it waits for
  /// the fallback choice), the counted owner's lockout, "Try Again" after the first failure and the
  /// fallback button once the sensor offers it.
  private mutating func biometricCaptured(_ event: CaptureEvent, _ facts: RunFacts)
    -> EvaluationStep
  {
    guard let sensor else { preconditionFailure("the biometric stage has a sensor") }
    let offerAfter = sensor.kind.failuresBeforeFallbackOffered
    switch event {
    case .match:
      var effects: [RunEffect] = []
      if facts.counted.consecutiveBiometricFailures != 0 {
        var counted = facts.counted
        counted.consecutiveBiometricFailures = 0
        effects.append(.ownerChanged(counted))
      }
      return biometricEnded(.matched(sensor: sensor.name), effects)
    case .noMatch, .passcode:
      failures += 1
      var counted = facts.counted
      counted.consecutiveBiometricFailures += 1
      if counted.consecutiveBiometricFailures >= rules.lockoutThreshold {
        counted.biometryLockedOut = true
      }
      var effects: [RunEffect] = [.ownerChanged(counted)]
      if counted.biometryLockedOut {
        effects.append(
          .lockedOut(uid: counted.uid, failures: counted.consecutiveBiometricFailures))
        effects.append(feedback("noMatch", FeedbackDetails(lockout: true)))
        return biometricEnded(.lockedOut, effects)
      }
      let allowed = sensor.kind.failedMatchesAllowed(configured: rules.maxBiometricAttempts)
      if failures >= allowed {
        if sensor.kind.stopsTryingAtFallbackOffer && failures >= offerAfter
          && fallbackButtonShown
        {
          stage = .choosing
          return EvaluationStep(effects: effects, next: .checkChooser)
        }
        effects.append(feedback("noMatch", FeedbackDetails(attemptsExhausted: true)))
        return biometricEnded(.attemptsExhausted, effects)
      }
      let offer = failures >= offerAfter && fallbackButtonShown ? "fallback" : "tryAgain"
      effects.append(feedback("noMatch", FeedbackDetails(offer: offer)))
      return nextCapture(effects)
    case .retry(let reason):
      return nextCapture([feedback(reason.rawValue)])
    case .userCancel:
      return biometricEnded(.cancelled, [])
    case .userFallback:
      if failures >= offerAfter && fallbackButtonShown {
        return biometricEnded(.fallbackChosen, [])
      }
      return nextCapture([feedback("fallbackNotOffered")])
    case .disconnected:
      return biometricEnded(.disconnected, [])
    }
  }

  /// What the end of the biometric stage means for the policy: deviceOwnerAuthentication falls
  /// back to the passcode unless the person matched or cancelled; every other policy (and a system
  /// evaluation) ends with it.
  private mutating func biometricEnded(_ end: BiometricStageEnd, _ effects: [RunEffect])
    -> EvaluationStep
  {
    guard system == nil, policy == .deviceOwnerAuthentication else {
      return self.end(end.biometricOnlyEnding, effects)
    }
    switch end {
    case .matched, .cancelled: return self.end(end.biometricOnlyEnding, effects)
    case .fallbackChosen, .attemptsExhausted, .lockedOut, .disconnected:
      stage = .betweenStages
      return EvaluationStep(
        effects: effects + [.fallbackToPasscode(reason: end.fallbackReason)],
        next: .openPasscodePrompt)
    }
  }

  // MARK: Moves (the stages in other files change the run through these)

  /// The current stage's sensor becomes `sensor`.
  mutating func use(_ sensor: StageSensor) { self.sensor = sensor }

  /// The run enters `stage`, its attempts counted afresh.
  mutating func enter(_ stage: Stage) {
    self.stage = stage
    attempt = 0
  }

  /// The stage's next attempt, counted.
  mutating func nextAttempt() -> Int {
    attempt += 1
    return attempt
  }

  // MARK: Steps

  /// The stage's next capture.
  mutating func nextCapture(_ effects: [RunEffect]) -> EvaluationStep {
    EvaluationStep(effects: effects, next: .capture(attempt: nextAttempt()))
  }

  /// The run ends.
  mutating func end(_ ending: RunEnding, _ effects: [RunEffect] = []) -> EvaluationStep {
    stage = .ended
    return EvaluationStep(effects: effects, next: .end(ending))
  }

  /// Feedback about the current stage's sensor and attempt.
  func feedback(_ what: String, _ details: FeedbackDetails = FeedbackDetails())
    -> RunEffect
  {
    .feedback(sensor: sensor?.name ?? "-", what: what, attempt: attempt, details: details)
  }
}
