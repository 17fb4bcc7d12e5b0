import LocalAuthProtocol
import Sensors

/// How a biometric stage ended, before the policy decides what it means.
enum BiometricStage {
  case matched(sensor: String)
  case cancelled
  case fallbackChosen
  case attemptsExhausted
  case lockedOut
  case disconnected
}

extension Broker {
  /// Runs an evaluation against the sensors per docs/protocol.md, "Evaluation semantics", and
  /// returns its outcome. Ends with appCancel when its task is cancelled (the canceller has already
  /// answered).
  func run(_ evaluation: Evaluation) async -> EvaluationOutcome {
    do {
      return try await runPolicy(evaluation)
    } catch let failure as SensorFailure where !Task.isCancelled {
      return .failure(sensorFailed(failure, evaluation))
    } catch {
      return .failure(self.error(.appCancel, evaluation))
    }
  }

  private func runPolicy(_ evaluation: Evaluation) async throws -> EvaluationOutcome {
    let owner = evaluation.owner.uid
    if let system = evaluation.system {
      // Biometric-only, on the owner's enrolled identities; no passcode stage, no agent.
      if case .failure(var refusal) = systemAvailability(owner: owner, system) {
        refusal.data["requestID"] = .string(evaluation.requestID)
        return .failure(refusal)
      }
      guard case .success(let sensor) = biometryAvailability(owner: owner, needsPasscode: false)
      else { return .failure(error(.biometryNotAvailable, evaluation)) }
      return biometricOnlyOutcome(try await biometricStage(evaluation, sensor), evaluation)
    }
    switch evaluation.policy {
    case .deviceOwnerAuthenticationWithBiometrics:
      guard case .success(let sensor) = biometryAvailability(owner: owner) else {
        return .failure(
          error(
            availabilityError(.deviceOwnerAuthenticationWithBiometrics, owner: owner), evaluation))
      }
      return biometricOnlyOutcome(try await biometricStage(evaluation, sensor), evaluation)
    case .deviceOwnerAuthentication:
      if case .success(let sensor) = biometryAvailability(owner: owner) {
        let stage = try await biometricStage(evaluation, sensor)
        switch stage {
        case .matched(let name): return success(evaluation, sensor: name)
        case .cancelled: return .failure(error(.userCancel, evaluation))
        case .fallbackChosen, .attemptsExhausted, .lockedOut, .disconnected:
          notify(
            evaluation, Notification.fallback,
            ["to": "passcode", "reason": .string(fallbackReason(stage))])
          notifyAgent(
            evaluation, Notification.agentFeedback,
            ["feedback": "fallback", "to": "passcode", "reason": .string(fallbackReason(stage))])
          monitor(evaluation, "fallback", ["to": "passcode"])
          traceFallback(evaluation, to: "passcode", reason: fallbackReason(stage))
        }
      }
      return try await passcodeStage(evaluation)
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return try await companionStage(evaluation)
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      if case .success(let sensor) = biometryAvailability(owner: owner) {
        return biometricOnlyOutcome(try await biometricStage(evaluation, sensor), evaluation)
      }
      return try await companionStage(evaluation)
    }
  }

  /// One presentation on a sensor, or the person's answer from the prompt agent, whichever comes first;
  /// throws when the evaluation was cancelled meanwhile.
  func nextEvent(from sensor: any SensorDriver, for evaluation: Evaluation, attempt: Int)
    async throws
    -> CaptureEvent
  {
    let asked = time.now()
    let request = CaptureRequest(
      requestID: evaluation.requestID, attempt: attempt, owner: evaluation.owner)
    let event: CaptureEvent
    if evaluation.agent == nil {
      event = try await sensor.capture(request)
    } else {
      let answers = evaluation.answers
      event = try await withThrowingTaskGroup(of: CaptureEvent.self) { group in
        group.addTask { try await sensor.capture(request) }
        group.addTask { try await answers.next().event }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
      }
    }
    try Task.checkCancellation()
    traceCapture(evaluation, sensor: sensor.name, event: event, askedAt: asked)
    return event
  }

  func availabilityError(_ policy: Policy, owner: UInt32) -> ErrorCode {
    if case .failure(let code) = availability(of: policy, owner: owner) { return code }
    return .authenticationFailed
  }

  private func fallbackReason(_ stage: BiometricStage) -> String {
    switch stage {
    case .fallbackChosen: "userFallback"
    case .attemptsExhausted: "attemptsExhausted"
    case .lockedOut: "biometryLockout"
    case .disconnected: "biometryDisconnected"
    default: "other"
    }
  }

  private func biometricOnlyOutcome(_ stage: BiometricStage, _ evaluation: Evaluation)
    -> EvaluationOutcome
  {
    switch stage {
    case .matched(let name): success(evaluation, sensor: name)
    case .cancelled: .failure(error(.userCancel, evaluation))
    case .fallbackChosen: .failure(error(.userFallback, evaluation))
    case .attemptsExhausted: .failure(error(.authenticationFailed, evaluation))
    case .lockedOut: .failure(error(.biometryLockout, evaluation))
    case .disconnected: .failure(error(.biometryDisconnected, evaluation))
    }
  }

  func success(_ evaluation: Evaluation, sensor: String?, reused: Bool = false)
    -> EvaluationOutcome
  {
    .success(
      EvaluationSuccess(
        requestID: evaluation.requestID, policy: evaluation.policy, sensor: sensor, reused: reused))
  }

  func feedback(
    _ evaluation: Evaluation, _ sensor: String, _ what: String, attempt: Int,
    extra: JSONObject = [:]
  ) {
    var params: JSONObject = [
      "sensor": .string(sensor), "feedback": .string(what), "attempt": .int(attempt),
    ]
    params.members.append(contentsOf: extra.members)
    notify(evaluation, Notification.feedback, params)
    notifyAgent(evaluation, Notification.agentFeedback, params)
    monitor(evaluation, "feedback", params)
    traceFeedback(evaluation, sensor: sensor, feedback: what, attempt: attempt)
  }

  /// The Face ID / Touch ID prompt: up to the allowed failed matches (Face ID two, then it waits for
  /// the fallback choice), the counted owner's lockout, "Try Again" after the first failure and the
  /// fallback button once the sensor offers it.
  private func biometricStage(_ evaluation: Evaluation, _ sensor: any SensorDriver) async throws
    -> BiometricStage
  {
    evaluation.sensor = sensor.name
    // Failed matches count against the requester of a system evaluation, else the owner.
    let counted = evaluation.countsAgainst
    var failures = 0
    var attempt = 0
    let offerAfter = sensor.kind.failuresBeforeFallbackOffered
    let allowed = sensor.kind.failedMatchesAllowed(configured: configuration.maxBiometricAttempts)
    while true {
      attempt += 1
      let event = try await nextEvent(from: sensor, for: evaluation, attempt: attempt)
      switch event {
      case .match:
        if ownerState(counted).consecutiveBiometricFailures != 0 {
          updateOwner(counted) { $0.consecutiveBiometricFailures = 0 }
        }
        return .matched(sensor: sensor.name)
      case .noMatch, .passcode:
        failures += 1
        let threshold = configuration.lockoutThreshold
        updateOwner(counted) { state in
          state.consecutiveBiometricFailures += 1
          if state.consecutiveBiometricFailures >= threshold { state.biometryLockedOut = true }
        }
        let person = ownerState(counted)
        if person.biometryLockedOut {
          log.notice(
            "biometry locked out for uid \(person.uid) after \(person.consecutiveBiometricFailures) consecutive failed matches"
          )
          feedback(evaluation, sensor.name, "noMatch", attempt: attempt, extra: ["lockout": true])
          return .lockedOut
        }
        if failures >= allowed {
          let choice =
            sensor.kind.stopsTryingAtFallbackOffer && failures >= offerAfter
            && evaluation.context.fallbackButtonShown && canChooseFallback(evaluation, sensor)
          var extra: JSONObject = ["attemptsExhausted": true]
          if choice { extra["offer"] = "fallback" }
          feedback(evaluation, sensor.name, "noMatch", attempt: attempt, extra: extra)
          guard choice else { return .attemptsExhausted }
          return try await fallbackChoice(evaluation, sensor, attempt: attempt)
            ?? .attemptsExhausted
        }
        let offer =
          failures >= offerAfter && evaluation.context.fallbackButtonShown ? "fallback" : "tryAgain"
        feedback(
          evaluation, sensor.name, "noMatch", attempt: attempt, extra: ["offer": .string(offer)])
      case .retry(let reason):
        feedback(evaluation, sensor.name, reason.rawValue, attempt: attempt)
      case .userCancel:
        return .cancelled
      case .userFallback:
        if failures >= offerAfter && evaluation.context.fallbackButtonShown {
          return .fallbackChosen
        }
        feedback(evaluation, sensor.name, "fallbackNotOffered", attempt: attempt)
      case .disconnected:
        return .disconnected
      }
    }
  }

  /// The passcode prompt: tries until right or cancelled; from the configured failure on, each
  /// further try waits out an escalating delay on the injected clock.
  private func passcodeStage(_ evaluation: Evaluation) async throws -> EvaluationOutcome {
    let owner = evaluation.owner.uid
    guard case .success(let sensor) = passcodeAvailability(owner: owner) else {
      return .failure(error(.passcodeNotSet, evaluation))
    }
    evaluation.sensor = sensor.name
    // An agent that registered after the evaluation started shows it from here on.
    if evaluation.agent == nil { showPrompt(evaluation) }
    if evaluation.agent == nil, (sensor as? any ScriptableSensor)?.hasScriptedInput != true {
      // Someone must type the passcode, and nobody can: no agent shows the prompt, no script stands in.
      return .failure(
        error(
          .notInteractive, evaluation, reason: "noAgent",
          message:
            "No prompt agent is registered for \(evaluation.owner.name) to ask for the passcode; run 'localauthctl agent'."
        ))
    }
    evaluation.askingForPasscode = true
    notifyAgent(evaluation, Notification.agentPasscode, ["sensor": .string(sensor.name)])
    var attempt = 0
    while true {
      if let notBefore = ownerState(owner).passcodeRetryNotBefore, time.now() < notBefore {
        let wait = notBefore - time.now()
        feedback(
          evaluation, sensor.name, "passcodeDelay", attempt: attempt,
          extra: ["retryAfterSeconds": .int(Int(wait.components.seconds))])
        if try await waitOutDelay(until: notBefore, evaluation) == .userCancel {
          return .failure(error(.userCancel, evaluation))
        }
      }
      attempt += 1
      let event = try await nextEvent(from: sensor, for: evaluation, attempt: attempt)
      let guess: PasscodeGuess
      switch event {
      case .match: guess = .scripted(right: true)
      case .noMatch: guess = .scripted(right: false)
      case .passcode(let digits): guess = .typed(digits)
      case .userCancel:
        return .failure(error(.userCancel, evaluation))
      case .retry(let reason):
        feedback(evaluation, sensor.name, reason.rawValue, attempt: attempt)
        continue
      case .userFallback:
        feedback(evaluation, sensor.name, "fallbackNotOffered", attempt: attempt)
        continue
      case .disconnected:
        return .failure(
          error(.authenticationFailed, evaluation, reason: "passcodeSensorDisconnected"))
      }
      // A guess that arrives while the back-off runs (another guess, or an oldPasscode, started it
      // while this prompt was parked) is not judged: the wait comes first.
      switch await judgePasscodeGuess(guess, owner: owner) {
      case .right:
        try Task.checkCancellation()
        updateOwner(owner) { $0.passcodeSucceeded() }
        return success(evaluation, sensor: sensor.name)
      case .wrong(let failures):
        try Task.checkCancellation()
        feedback(
          evaluation, sensor.name, "wrongPasscode", attempt: attempt,
          extra: ["failures": .int(failures)])
      case .notJudged(let seconds):
        try Task.checkCancellation()
        feedback(
          evaluation, sensor.name, "passcodeDelay", attempt: attempt,
          extra: ["retryAfterSeconds": .int(seconds)])
      }
    }
  }

  /// Waits out a passcode back-off. The person may still cancel from the agent meanwhile; a passcode typed
  /// during the wait is refused unchecked (it is not a try), with the wait repeated as feedback.
  private func waitOutDelay(until notBefore: Duration, _ evaluation: Evaluation) async throws
    -> CaptureEvent?
  {
    guard evaluation.agent != nil else {
      try await time.sleep(until: notBefore)
      return nil
    }
    let answers = evaluation.answers
    let time = self.time
    while true {
      let answer = try await withThrowingTaskGroup(of: AgentAnswers.Answer?.self) { group in
        group.addTask {
          try await time.sleep(until: notBefore)
          return nil
        }
        group.addTask { try await answers.next() }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
      try Task.checkCancellation()
      switch answer {
      case nil: return nil
      case .cancel?: return .userCancel
      case .fallback?, .passcode?:
        let wait = notBefore - time.now()
        notifyAgent(
          evaluation, Notification.agentFeedback,
          [
            "sensor": .string(evaluation.sensor ?? "passcode"), "feedback": "passcodeDelay",
            "retryAfterSeconds": .int(max(0, Int(wait.components.seconds))),
          ])
      }
    }
  }

  /// Counts a wrong passcode for `owner` and starts the escalating delay once past the threshold.
  func passcodeFailed(_ owner: UInt32) -> Int {
    let from = configuration.passcodeDelayFromFailure
    let delays = configuration.passcodeDelays
    let now = time.now()
    updateOwner(owner) { state in
      state.consecutivePasscodeFailures += 1
      let failures = state.consecutivePasscodeFailures
      if failures >= from, !delays.isEmpty {
        state.passcodeRetryNotBefore = now + delays[min(failures - from, delays.count - 1)]
      }
    }
    return ownerState(owner).consecutivePasscodeFailures
  }

  /// The companion (watch) approval.
  private func companionStage(_ evaluation: Evaluation) async throws -> EvaluationOutcome {
    guard case .success(let sensor) = companionAvailability(owner: evaluation.owner.uid) else {
      return .failure(error(.companionNotAvailable, evaluation))
    }
    evaluation.sensor = sensor.name
    var attempt = 0
    while true {
      attempt += 1
      let event = try await nextEvent(from: sensor, for: evaluation, attempt: attempt)
      switch event {
      case .match: return success(evaluation, sensor: sensor.name)
      case .noMatch, .passcode: return .failure(error(.authenticationFailed, evaluation))
      case .userCancel: return .failure(error(.userCancel, evaluation))
      case .userFallback: return .failure(error(.userFallback, evaluation))
      case .disconnected: return .failure(error(.companionNotAvailable, evaluation))
      case .retry(let reason): feedback(evaluation, sensor.name, reason.rawValue, attempt: attempt)
      }
    }
  }
}
