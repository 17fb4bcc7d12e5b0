import LocalAuthProtocol
import Sensors

/// The policy engine's passcode stage: the prompt opens (or cannot), each guess is judged, and
/// from the configured failure on each further try waits out the escalating back-off. The run's
/// state changes through its moves (`use`, `enter`, `nextAttempt`; EvaluationRun.swift).
extension EvaluationRun {
  /// The passcode prompt, as asked for by `openPasscodePrompt`: `sensor` is the passcode sensor
  /// (nil: no passcode set, or no sensor for it); `answerable` whether anyone can type it (an agent
  /// shows the prompt, or a script stands in).
  mutating func passcodePromptOpened(
    _ sensor: StageSensor?, answerable: Bool, _ facts: RunFacts
  ) -> EvaluationStep {
    precondition(stage == .betweenStages, "the passcode prompt opens between stages")
    guard let sensor else { return end(.failure(.passcodeNotSet)) }
    use(sensor)
    guard answerable else {
      // Someone must type the passcode, and nobody can: no agent shows the prompt, no script stands in.
      return end(
        .failure(
          .notInteractive, reason: "noAgent",
          message:
            "No prompt agent is registered for \(owner.name) to ask for the passcode; run 'localauthctl agent'."
        ))
    }
    enter(.passcode)
    var effects: [RunEffect] = [.askForPasscode(sensor: sensor.name)]
    let next = passcodeTurn(facts, &effects)
    return EvaluationStep(effects: effects, next: next)
  }

  /// A passcode capture: a guess to judge, the person's cancel, or another try.
  mutating func passcodeCaptured(_ event: CaptureEvent, _ facts: RunFacts) -> EvaluationStep {
    var effects: [RunEffect] = []
    switch event {
    case .match: return EvaluationStep(next: .judge(.scripted(right: true)))
    case .noMatch: return EvaluationStep(next: .judge(.scripted(right: false)))
    case .passcode(let digits): return EvaluationStep(next: .judge(.typed(digits)))
    case .userCancel: return end(.failure(.userCancel))
    case .retry(let reason): effects.append(feedback(reason.rawValue))
    case .userFallback: effects.append(feedback("fallbackNotOffered"))
    case .disconnected:
      return end(.failure(.authenticationFailed, reason: "passcodeSensorDisconnected"))
    }
    let next = passcodeTurn(facts, &effects)
    return EvaluationStep(effects: effects, next: next)
  }

  /// A guess's verdict, as asked for by `judge`: right ends the run (and clears the owner's
  /// counters); wrong, or not judged while the back-off runs, is feedback and another try.
  mutating func judged(_ verdict: PasscodeVerdict, _ facts: RunFacts) -> EvaluationStep {
    precondition(stage == .passcode, "a guess is judged in the passcode stage")
    var effects: [RunEffect] = []
    switch verdict {
    case .right:
      return end(
        .success(sensor: sensor?.name ?? "passcode"), [.passcodeSucceeded(uid: owner.uid)])
    case .wrong(let failures):
      effects.append(feedback("wrongPasscode", FeedbackDetails(failures: failures)))
    case .notJudged(let seconds):
      effects.append(feedback("passcodeDelay", FeedbackDetails(retryAfterSeconds: seconds)))
    }
    let next = passcodeTurn(facts, &effects)
    return EvaluationStep(effects: effects, next: next)
  }

  /// The back-off asked for by `waitOutDelay` is over (`cancelled`: the person pressed Cancel
  /// meanwhile): the next try is captured without checking the back-off again.
  mutating func delayEnded(cancelled: Bool) -> EvaluationStep {
    precondition(stage == .passcode, "the back-off is waited out in the passcode stage")
    guard !cancelled else { return end(.failure(.userCancel)) }
    return nextCapture([])
  }

  /// The next try: first the back-off when it still runs (told as feedback), else the next capture.
  mutating func passcodeTurn(_ facts: RunFacts, _ effects: inout [RunEffect]) -> RunNext {
    if let notBefore = facts.owner.passcodeRetryNotBefore, facts.now < notBefore {
      let wait = notBefore - facts.now
      effects.append(
        feedback(
          "passcodeDelay", FeedbackDetails(retryAfterSeconds: Int(wait.components.seconds))))
      return .waitOutDelay(until: notBefore)
    }
    return .capture(attempt: nextAttempt())
  }
}
