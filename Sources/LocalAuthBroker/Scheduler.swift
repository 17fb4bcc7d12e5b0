/// The machine-wide order of evaluations: the ones waiting for the sensors, the one running, every
/// one in flight by request id, the watcher of the running one's prompt deadline, and whether the
/// daemon is shutting down. It decides who holds the sensors (`arrive`, `finished`) and returns
/// what follows as `SchedulerStep`s; the broker carries them out (notifications, prompts, the
/// evaluation's task). Lives in the broker actor and is touched only on its executor.
struct Scheduler {
  /// The evaluations waiting for the sensors, their limits and fair order.
  private(set) var queue = EvaluationQueue()
  /// The evaluation that holds the sensors.
  private(set) var running: Evaluation?
  /// Every evaluation in flight (queued, running, or a system one waiting its turn), by request id.
  private(set) var evaluations: [String: Evaluation] = [:]
  /// The one task that ends the running evaluation at its prompt deadline (nil: none watching).
  var deadlineWatcher: Task<Void, Never>?
  /// Set by SIGTERM: new evaluations are refused.
  private(set) var shuttingDown = false

  /// An evaluation arrives: it is in flight from now on, and it may end the running one
  /// (`Preemption`), start at once, or wait. A system evaluation waits ahead of every app
  /// evaluation. The steps are in the order the broker carries them out; the books already say
  /// who runs.
  mutating func arrive(_ evaluation: Evaluation, overlap: OverlapMode) -> [SchedulerStep] {
    evaluations[evaluation.requestID] = evaluation
    let systemPosition = evaluation.isSystem ? queue.insertSystem(evaluation) : nil
    var steps: [SchedulerStep] = []
    if let current = running,
      let reason = Preemption.reason(ending: current.claim, for: evaluation.claim, overlap: overlap)
    {
      steps.append(.preempt(current, reason: reason))
      running = nil
      if let next = takeNext() { steps.append(.start(next)) }
    }
    guard let systemPosition else {
      if running == nil && queue.isEmpty {
        begin(evaluation)
        steps.append(.start(evaluation))
      } else {
        steps.append(.queued(evaluation, position: queue.append(evaluation)))
      }
      return steps
    }
    if running === evaluation { return steps }
    if running == nil {
      if let next = takeNext() { steps.append(.start(next)) }
      return steps
    }
    steps.append(.queued(evaluation, position: systemPosition))
    return steps
  }

  /// An evaluation ended: it leaves the books (and the queue when it waited there). When it held
  /// the sensors, the next one takes them: returned for the broker to start.
  mutating func finished(_ evaluation: Evaluation, wasRunning: Bool, wasQueued: Bool)
    -> Evaluation?
  {
    evaluations[evaluation.requestID] = nil
    if wasQueued { queue.remove(evaluation) }
    guard wasRunning, running === evaluation else { return nil }
    running = nil
    return takeNext()
  }

  /// Shutdown begins: new evaluations are refused, the deadline watcher stops, and the queued and
  /// running evaluations are returned for the broker to end.
  mutating func shutDown() -> [Evaluation] {
    shuttingDown = true
    deadlineWatcher?.cancel()
    return queue.waiting + (running.map { [$0] } ?? [])
  }

  /// The next waiting evaluation, now holding the sensors, when none runs.
  private mutating func takeNext() -> Evaluation? {
    guard running == nil, let next = queue.popNext() else { return nil }
    begin(next)
    return next
  }

  /// `evaluation` holds the sensors (the fair order's clock turns).
  private mutating func begin(_ evaluation: Evaluation) {
    running = evaluation
    queue.started(evaluation)
  }
}

/// One thing the broker does because the scheduler decided it, in order. Immutable value.
enum SchedulerStep {
  /// End the running evaluation with systemCancel and this `reason`: an arriving one preempts it.
  case preempt(Evaluation, reason: String)
  /// The evaluation holds the sensors: show its prompt and run it.
  case start(Evaluation)
  /// The evaluation waits at this position (1-based): tell its client.
  case queued(Evaluation, position: Int)
}
