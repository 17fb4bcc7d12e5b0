/// What the broker tells about itself: outcomes counted for broker.status, the re-prompt
/// detectors and traces, the log budget of evaluations that end at once, and the connections that
/// called broker.monitor. Lives in the broker actor and is touched only on its executor.
struct Observability {
  /// The re-prompt detectors and evaluation traces.
  let diagnostics = EvaluationDiagnostics()
  /// How many evaluations ended with each result name, since start.
  private(set) var outcomes: [String: Int] = [:]
  /// How many lines a uid's evaluations that end at once may log per second.
  var atOnceLogBudget = AtOnceLogBudget()
  /// The connections that called `broker.monitor`.
  var monitors = MonitorSubscribers()

  /// Counts an evaluation's result for broker.status.
  mutating func count(_ result: EvaluationResult) {
    outcomes[result.name, default: 0] += 1
  }

  /// The lines to log, one per uid, for the evaluations that ended at once and were held back by
  /// the budget in a second that is over.
  mutating func suppressedAtOnceLines(now: Duration) -> [String] {
    atOnceLogBudget.dueReports(now: now).map { report in
      let outcomes = report.suppressed.sorted { $0.key < $1.key }
        .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
      return "uid \(report.uid): \(report.total) more evaluations ended at once within a second "
        + "and were not logged one by one (past \(AtOnceLogBudget.perSecond) a second): \(outcomes)"
    }
  }
}
