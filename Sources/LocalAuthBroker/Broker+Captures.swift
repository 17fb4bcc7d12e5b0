import LocalAuthProtocol
import Sensors

/// Waiting for what the person does while an evaluation runs: a presentation on the sensor or an
/// answer from the prompt agent, the capture armed, the fallback choice, and a passcode back-off
/// waited out. `Broker+EvaluationRun.swift` drives the run and asks these for its next event.
extension Broker {
  /// One presentation on a sensor, or the person's answer from the prompt agent, whichever comes first;
  /// throws when the evaluation was cancelled meanwhile.
  func nextEvent(from sensor: any SensorDriver, for evaluation: Evaluation, attempt: Int)
    async throws
    -> CaptureEvent
  {
    let asked = services.time.now()
    let requestID = evaluation.requestID
    let name = sensor.name
    let request = CaptureRequest(
      requestID: requestID, attempt: attempt, owner: evaluation.owner,
      armed: { [self] in
        Task { await self.captureArmed(requestID, sensor: name, attempt: attempt) }
      })
    if !sensor.reportsArming { armed(evaluation, sensor: name, attempt: attempt) }
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

  /// A driver that reports its arming armed a capture of `requestID`: told when that evaluation
  /// still runs (a late report of an ended one is dropped).
  func captureArmed(_ requestID: String, sensor: String, attempt: Int) {
    guard let evaluation = scheduler.evaluations[requestID] else { return }
    armed(evaluation, sensor: sensor, attempt: attempt)
  }

  /// Tells the evaluation's client and the monitors that the sensor listens
  /// (`evaluation.armed`): pam_localauthd and apps ask for the finger or the face from here.
  func armed(_ evaluation: Evaluation, sensor: String, attempt: Int) {
    // A run whose evaluation ended before its task first ran (a cancel in the same write) reaches
    // its first capture all the same: nothing is announced for it.
    guard evaluation.phase == .running, scheduler.running === evaluation else { return }
    let event = ArmedEvent(requestID: evaluation.requestID, sensor: sensor, attempt: attempt)
    notify(evaluation, ArmedNotification.self, event)
    monitor(evaluation, "armed", Self.body(event))
    announceUnshownWait(evaluation, sensor: sensor)
  }

  /// The person's answer while the prompt waits for the fallback choice: through the prompt agent,
  /// or from the simulated sensor's script when `CANCEL` or `FALLBACK` is its next answer; no
  /// capture is read otherwise (a scripted `NOMATCH` or `MATCH` stays queued for the next prompt).
  func choice(on sensor: any SensorDriver, for evaluation: Evaluation, attempt: Int)
    async throws -> CaptureEvent
  {
    if (sensor as? any ScriptableSensor)?.choiceIsScriptedNext == true {
      return try await nextEvent(from: sensor, for: evaluation, attempt: attempt)
    }
    let event = try await evaluation.answers.next().event
    try Task.checkCancellation()
    return event
  }

  /// Waits out a passcode back-off. The person may still cancel from the agent meanwhile; a passcode typed
  /// during the wait is refused unchecked (it is not a try), with the wait repeated as feedback.
  func waitOutDelay(until notBefore: Duration, _ evaluation: Evaluation) async throws
    -> CaptureEvent?
  {
    guard evaluation.agent != nil else {
      try await services.time.sleep(until: notBefore)
      return nil
    }
    let answers = evaluation.answers
    let time = services.time
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
        let wait = notBefore - services.time.now()
        notifyAgent(
          evaluation, AgentFeedbackNotification.self,
          AgentFeedbackEvent(
            requestID: evaluation.requestID, feedback: "passcodeDelay",
            sensor: evaluation.sensor ?? "passcode",
            details: FeedbackDetails(retryAfterSeconds: max(0, Int(wait.components.seconds)))))
      }
    }
  }

  /// Whether someone can answer a wait for the fallback choice: a prompt agent, or the script.
  func canChooseFallback(_ evaluation: Evaluation, _ sensor: any SensorDriver) -> Bool {
    evaluation.agent != nil || (sensor as? any ScriptableSensor)?.choiceIsScriptedNext == true
  }
}
