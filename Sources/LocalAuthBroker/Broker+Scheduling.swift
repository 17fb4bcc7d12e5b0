import LocalAuthProtocol

/// Running evaluations one at a time: queueing, starting, finishing exactly once, the prompt
/// deadline and shutdown. The `Scheduler` decides who holds the sensors and keeps the books (queue,
/// running, in flight); this carries out its steps (notifications, prompts, the evaluation's task).
extension Broker {
  /// An evaluation is in flight: the scheduler decides whether it ends the running one, starts or
  /// waits, and the broker carries that out.
  func enqueue(_ evaluation: Evaluation) {
    diagnoseSubmitted(evaluation)
    evaluation.client.evaluations[evaluation.requestID] = evaluation
    evaluation.context.inFlight = evaluation
    carryOut(scheduler.arrive(evaluation, overlap: configuration.overlap))
  }

  /// Does what the scheduler decided, in its order.
  func carryOut(_ steps: [SchedulerStep]) {
    for step in steps {
      switch step {
      case .preempt(let current, let reason):
        finish(current, .failure(error(.systemCancel, current, reason: reason)))
      case .start(let evaluation):
        start(evaluation)
      case .queued(let evaluation, let position):
        notify(
          evaluation, QueuedNotification.self,
          QueuedEvent(requestID: evaluation.requestID, id: evaluation.rpcID, position: position))
        monitor(evaluation, "queued", ["position": .int(position)])
      }
    }
  }

  /// The scheduler gave `evaluation` the sensors: its prompt is shown, its client told, its
  /// deadline watched and its task run.
  func start(_ evaluation: Evaluation) {
    evaluation.phase = .running
    traceStarted(evaluation)
    evaluation.sensor = plannedSensor(for: evaluation.policy, owner: evaluation.owner.uid)
    showPrompt(evaluation)
    if promptIsShown(evaluation) {
      notify(
        evaluation, StartedNotification.self,
        StartedEvent(
          requestID: evaluation.requestID, id: evaluation.rpcID, policy: evaluation.policy))
    }
    monitor(evaluation, "started", [:])
    services.log.evaluationStarted(record(evaluation))
    evaluation.deadline = services.time.now() + configuration.promptTimeout
    watchPromptDeadline()
    evaluation.task = Task {
      let outcome = await self.run(evaluation)
      self.finish(evaluation, outcome)
    }
  }

  /// Ends an evaluation exactly once: answers (a responder only while its client is connected),
  /// logs, frees its context and, if it was running, starts the next one. Later calls for the same
  /// evaluation do nothing.
  func finish(_ evaluation: Evaluation, _ outcome: EvaluationOutcome, answer: Bool = true) {
    guard evaluation.phase != .finished else { return }
    let wasRunning = evaluation.phase == .running
    let wasQueued = evaluation.phase == .queued
    evaluation.phase = .finished
    let next = scheduler.finished(evaluation, wasRunning: wasRunning, wasQueued: wasQueued)
    evaluation.client.evaluations[evaluation.requestID] = nil
    if evaluation.context.inFlight === evaluation { evaluation.context.inFlight = nil }
    evaluation.task?.cancel()
    if case .success(let success) = outcome { grantReuse(evaluation, success) }
    notePresence(evaluation, outcome)
    let result = account(outcome, of: evaluation)
    diagnoseFinished(evaluation, result)
    var event: JSONObject = ["result": .string(result.name)]
    if let reason = result.reason { event["reason"] = .string(reason) }
    monitor(evaluation, "finished", event)
    notifyAgent(
      evaluation, AgentEndedNotification.self,
      AgentEndedEvent(requestID: evaluation.requestID, result: result.name, reason: result.reason))
    evaluation.agent = nil
    endUnshownWait(evaluation)
    switch evaluation.delivery {
    case .handler:
      // Broker code (an SSH signature, a handoff's authorization) waits on its handler: it hears
      // every end, a client gone included, or its task would wait forever.
      evaluation.delivery.deliver(outcome)
    case .responder:
      if answer && evaluation.client.connected { evaluation.delivery.deliver(outcome) }
    }
    if let next { start(next) }
  }

  /// Ends the running evaluation with systemCancel (`reason: "timeout"`) once its prompt deadline
  /// passes. One watcher serves every evaluation: it wakes at the deadline or every second and
  /// leaves when nothing runs, so finished evaluations leave no timer behind.
  func watchPromptDeadline() {
    guard scheduler.deadlineWatcher == nil else { return }
    scheduler.deadlineWatcher = Task {
      let time = self.services.time
      while let current = self.scheduler.running, let deadline = current.deadline {
        let now = time.now()
        if now >= deadline {
          self.finish(current, .failure(self.error(.systemCancel, current, reason: "timeout")))
          continue
        }
        do {
          try await time.sleep(until: min(deadline, now + .seconds(1)))
        } catch {
          break
        }
      }
      self.scheduler.deadlineWatcher = nil
    }
  }

  /// Ends every queued and running evaluation with systemCancel and refuses new ones (SIGTERM).
  public func shutdown() {
    for evaluation in scheduler.shutDown() {
      finish(evaluation, .failure(error(.systemCancel, evaluation, reason: "shutdown")))
    }
    // What the at-once log budget still holds back is counted in the log now, not lost with the
    // process: a second from now, every window it keeps is over.
    logSuppressedAtOnce(now: services.time.now() + .seconds(1))
  }
}
