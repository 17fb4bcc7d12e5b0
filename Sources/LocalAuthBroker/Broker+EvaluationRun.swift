import LocalAuthProtocol
import Sensors

/// The glue between an evaluation and its `EvaluationRun` (the policy engine): the broker starts
/// the run, looks up the facts it asks for, waits for the captures and answers it asks for, and
/// carries out the effects it returns (notifications, the owner's state, log lines).
extension Broker {
  /// Runs an evaluation against the sensors per docs/protocol.md, "Evaluation semantics", and
  /// returns its outcome. Ends with appCancel when its task is cancelled (the canceller has already
  /// answered).
  func run(_ evaluation: Evaluation) async -> EvaluationOutcome {
    var run = EvaluationRun(
      policy: evaluation.policy, system: evaluation.system, owner: evaluation.owner,
      fallbackButtonShown: evaluation.context.fallbackButtonShown,
      rules: EvaluationRun.Rules(
        maxBiometricAttempts: configuration.maxBiometricAttempts,
        lockoutThreshold: configuration.lockoutThreshold))
    let ending: RunEnding
    do {
      ending = try await drive(&run, evaluation)
    } catch let failure as SensorFailure where !Task.isCancelled {
      services.log.notice(
        "sensor \(evaluation.sensor ?? "-") failed during evaluation \(evaluation.requestID): \(failure)"
      )
      ending = run.sensorFailed(failure)
    } catch {
      ending = run.cancelled()
    }
    return outcome(ending, evaluation)
  }

  /// An ending as the evaluation's outcome, with its requestID.
  func outcome(_ ending: RunEnding, _ evaluation: Evaluation) -> EvaluationOutcome {
    switch ending {
    case .success(let sensor):
      return success(evaluation, sensor: sensor)
    case .failure(let code, let reason, let message):
      return .failure(error(code, evaluation, reason: reason, message: message))
    case .refused(var refusal):
      refusal.data["requestID"] = .string(evaluation.requestID)
      return .failure(refusal)
    }
  }

  /// Steps the run until it ends: each step's effects carried out, then what it needs next.
  private func drive(_ run: inout EvaluationRun, _ evaluation: Evaluation) async throws
    -> RunEnding
  {
    var step = run.start()
    // The driver of the current stage (the run knows its name and kind only).
    var driver: (any SensorDriver)?
    while true {
      carryOut(step.effects, evaluation)
      switch step.next {
      case .end(let ending):
        return ending
      case .checkBiometry:
        let check = biometryCheck(evaluation)
        if case .success(let sensor) = check.driver {
          driver = sensor
          evaluation.sensor = sensor.name
        }
        step = run.biometryChecked(check.check)
      case .checkCompanion:
        driver = try? companionAvailability(owner: evaluation.owner.uid).get()
        if let driver { evaluation.sensor = driver.name }
        step = run.companionChecked(driver.map(StageSensor.init))
      case .openPasscodePrompt:
        driver = try? passcodeAvailability(owner: evaluation.owner.uid).get()
        var answerable = false
        if let driver {
          evaluation.sensor = driver.name
          // An agent that registered after the evaluation started shows it from here on.
          if evaluation.agent == nil { showPrompt(evaluation) }
          answerable =
            evaluation.agent != nil || (driver as? any ScriptableSensor)?.hasScriptedInput == true
        }
        step = run.passcodePromptOpened(
          driver.map(StageSensor.init), answerable: answerable, facts(run, evaluation))
      case .capture(let attempt):
        guard let driver else { preconditionFailure("a capture has its stage's driver") }
        let event = try await nextEvent(from: driver, for: evaluation, attempt: attempt)
        step = run.captured(event, facts(run, evaluation))
      case .checkChooser:
        step = run.chooser(available: driver.map { canChooseFallback(evaluation, $0) } ?? false)
      case .awaitChoice(let attempt):
        guard let driver, canChooseFallback(evaluation, driver) else {
          step = run.nobodyCanChoose()
          continue
        }
        step = run.choiceMade(try await choice(on: driver, for: evaluation, attempt: attempt))
      case .waitOutDelay(let notBefore):
        let cancelled = try await waitOutDelay(until: notBefore, evaluation) == .userCancel
        step = run.delayEnded(cancelled: cancelled)
      case .judge(let guess):
        // A guess that arrives while the back-off runs (another guess, or an oldPasscode, started
        // it while this prompt was parked) is not judged: the wait comes first.
        // A system evaluation never reaches the passcode stage (sudo, su and polkit stay
        // biometric-only); were it to, no login password would be checked for it.
        let verdict = await judgePasscodeGuess(
          guess, owner: evaluation.owner.uid,
          on: evaluation.isSystem && driver is any LoginPasswordSensor ? nil : driver,
          account: evaluation.owner)
        try Task.checkCancellation()
        step = run.judged(verdict, facts(run, evaluation))
      }
    }
  }

  /// Biometry's availability for the run, with its driver: a system evaluation needs no passcode
  /// and is refused when its requester is locked out.
  private func biometryCheck(_ evaluation: Evaluation) -> (
    check: BiometryCheck, driver: Result<any SensorDriver, ErrorCode>
  ) {
    let owner = evaluation.owner.uid
    if let system = evaluation.system,
      case .failure(let refusal) = systemAvailability(owner: owner, system)
    {
      return (.refused(refusal), .failure(refusal.code))
    }
    let driver = biometryAvailability(owner: owner, needsPasscode: !evaluation.isSystem)
    switch driver {
    case .success(let sensor): return (.ready(StageSensor(sensor)), driver)
    case .failure(let code): return (.unavailable(code), driver)
    }
  }

  /// What the run reads with each event: the clock and the counted owner's and the owner's states.
  private func facts(_ run: EvaluationRun, _ evaluation: Evaluation) -> RunFacts {
    let counted = ownerState(run.countsAgainst)
    let owner = evaluation.owner.uid
    return RunFacts(
      now: services.time.now(), counted: counted,
      owner: counted.uid == owner ? counted : ownerState(owner))
  }

  /// Carries out a step's effects, in order.
  private func carryOut(_ effects: [RunEffect], _ evaluation: Evaluation) {
    for effect in effects {
      switch effect {
      case .feedback(let sensor, let what, let attempt, let details):
        feedback(evaluation, sensor, what, attempt: attempt, details: details)
      case .ownerChanged(let state):
        updateOwner(state.uid) { $0 = state }
      case .lockedOut(let uid, let failures):
        services.log.notice(
          "biometry locked out for uid \(uid) after \(failures) consecutive failed matches")
      case .fallbackToPasscode(let reason):
        let secret = passcodeSecret(owner: evaluation.owner.uid)
        notify(
          evaluation, FallbackNotification.self,
          FallbackEvent(
            requestID: evaluation.requestID, to: "passcode", reason: reason, secret: secret))
        notifyAgent(
          evaluation, AgentFeedbackNotification.self,
          AgentFeedbackEvent(
            requestID: evaluation.requestID, feedback: "fallback", to: "passcode",
            reason: reason, secret: secret))
        monitor(evaluation, "fallback", ["to": "passcode"])
        traceFallback(evaluation, to: "passcode", reason: reason)
      case .askForPasscode(let sensor):
        evaluation.askingForPasscode = true
        let secret = sensors.driver(named: sensor).map(passcodeSecret(of:)) ?? "passcode"
        notifyAgent(
          evaluation, AgentPasscodeNotification.self,
          AgentPasscodeEvent(requestID: evaluation.requestID, sensor: sensor, secret: secret))
      case .passcodeSucceeded(let uid):
        updateOwner(uid) { $0.passcodeSucceeded() }
      }
    }
  }

  /// Sends feedback about a prompt to its client, its agent, the monitors and its trace.
  func feedback(
    _ evaluation: Evaluation, _ sensor: String, _ what: String, attempt: Int,
    details: FeedbackDetails = FeedbackDetails()
  ) {
    let event = FeedbackEvent(
      requestID: evaluation.requestID, sensor: sensor, feedback: what, attempt: attempt,
      details: details)
    notify(evaluation, FeedbackNotification.self, event)
    notifyAgent(evaluation, AgentFeedbackNotification.self, AgentFeedbackEvent(event))
    monitor(evaluation, "feedback", Self.body(event))
    traceFeedback(evaluation, sensor: sensor, feedback: what, attempt: attempt)
  }

  /// A success of the evaluation on `sensor` (nil and `reused` for a context's earlier success).
  func success(_ evaluation: Evaluation, sensor: String?, reused: Bool = false)
    -> EvaluationOutcome
  {
    .success(
      EvaluationSuccess(
        requestID: evaluation.requestID, policy: evaluation.policy, sensor: sensor, reused: reused))
  }
}

extension StageSensor {
  /// The name and kind of a driver.
  init(_ driver: any SensorDriver) { self.init(name: driver.name, kind: driver.kind) }
}
