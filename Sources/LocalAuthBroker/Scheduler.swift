/// The machine-wide order of evaluations: the ones waiting for the sensors, the one running, every
/// one in flight by request id, the watcher of the running one's prompt deadline, and whether the
/// daemon is shutting down. Lives in the broker actor and is touched only on its executor; the
/// broker starts and finishes evaluations, this keeps their books.
struct Scheduler {
  /// The evaluations waiting for the sensors, their limits and fair order.
  var queue = EvaluationQueue()
  /// The evaluation that holds the sensors.
  var running: Evaluation?
  /// Every evaluation in flight (queued, running, or a system one waiting its turn), by request id.
  private(set) var evaluations: [String: Evaluation] = [:]
  /// The one task that ends the running evaluation at its prompt deadline (nil: none watching).
  var deadlineWatcher: Task<Void, Never>?
  /// Set by SIGTERM: new evaluations are refused.
  private(set) var shuttingDown = false

  /// An evaluation is in flight.
  mutating func admit(_ evaluation: Evaluation) {
    evaluations[evaluation.requestID] = evaluation
  }

  /// An evaluation ended: it leaves the books (and the queue when it waited there).
  mutating func remove(_ evaluation: Evaluation, wasQueued: Bool) {
    evaluations[evaluation.requestID] = nil
    if wasQueued { queue.remove(evaluation) }
  }

  /// The next evaluation to start, when none runs.
  mutating func next() -> Evaluation? {
    guard running == nil else { return nil }
    return queue.popNext()
  }

  /// Shutdown begins: new evaluations are refused, the deadline watcher stops, and the queued and
  /// running evaluations are returned for the broker to end.
  mutating func shutDown() -> [Evaluation] {
    shuttingDown = true
    deadlineWatcher?.cancel()
    return queue.waiting + (running.map { [$0] } ?? [])
  }
}
