/// The evaluation detectors' switches and thresholds and the trace bounds (the `[Diagnostics]`
/// section), every one with a default.
public struct DiagnosticsConfiguration: Sendable, Equatable {
  /// Flags a client that evaluates again shortly after its previous prompt was cancelled.
  public var repromptDetector = true
  /// Flags a client with two prompts queued or running at once from different contexts.
  public var overlapDetector = true
  /// Flags a client that invalidates a busy or cancelled context and evaluates in a new one.
  public var churnDetector = true
  /// How soon after a cancel a new evaluation counts as a re-prompt.
  public var repromptWindow: Duration = .seconds(2)
  /// How soon after an invalidation a new context's evaluation counts as churn.
  public var churnWindow: Duration = .seconds(2)
  /// Evaluations kept for `broker.trace` per client (app id, or pid when none was declared).
  public var tracePerClient = 32
  /// Evaluations kept for `broker.trace` in total; the oldest go first.
  public var traceTotal = 1024
  /// Sensor events and feedback kept per traced evaluation; later ones are counted, not kept.
  public var traceEventsPerEvaluation = 64
  /// Findings kept for `broker.findings` (the counters in `broker.status` count all of them).
  public var findingsKept = 256
  /// App ids the detectors leave alone (their evaluations are still traced).
  public var quietApps: Set<String> = []

  /// The defaults.
  public init() {}
}
