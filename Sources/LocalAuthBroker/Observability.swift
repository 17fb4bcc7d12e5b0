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

  /// An evaluation of `uid` ended with `result`: it is counted, and the answer says what to log —
  /// the lines the at-once budget held back in a second that is over, then whether this
  /// evaluation's own line is written (always, but for one that ended at once past its uid's
  /// budget).
  mutating func ended(_ result: EvaluationResult, uid: UInt32, atOnce: Bool, now: Duration)
    -> OutcomeLog
  {
    count(result)
    let heldBack = suppressedAtOnceLines(now: now)
    let logged = !atOnce || atOnceLogBudget.admit(uid: uid, outcome: result.name, now: now)
    return OutcomeLog(heldBack: heldBack, logsTheEvaluation: logged)
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

/// What to log when an evaluation ends (`Observability.ended`). Immutable value.
struct OutcomeLog: Equatable {
  /// Lines for what the at-once budget held back, one per uid, to log first.
  let heldBack: [String]
  /// Whether the evaluation's own finish line is logged.
  let logsTheEvaluation: Bool
}
