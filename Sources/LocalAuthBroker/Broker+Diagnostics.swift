import LocalAuthCrypto
import LocalAuthProtocol
import Sensors

/// The broker's side of the detectors and traces: the lifecycle hooks (submitted, started, sensor
/// events, feedback, finished, invalidated) and the `broker.findings` / `broker.trace` methods.
extension Broker {
  /// The routes of `broker.findings` and `broker.trace`.
  static var diagnosticsRoutes: [MethodRoute] {
    [
      .answer(FindingsRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.findings(params, client: client)
      },
      .answer(TraceRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.trace(params, client: client)
      },
    ]
  }

  /// The clock's time, for traces (converted to milliseconds since start only when shown).
  var diagnosticsNow: Duration { services.time.now() }

  /// How the detectors tell clients apart: uid and app id, or uid and pid before a client
  /// says hello (its app id is still the default `uid-N`), so unrelated processes of one user
  /// are not one client.
  func diagnosticsKey(_ client: ClientSession) -> ClientKey {
    let appID = client.appID
    if appID.utf8.count <= 14 && appID.hasPrefix("uid-") {
      return ClientKey(uid: client.peer.uid, pid: client.peer.pid, appID: "")
    }
    return ClientKey(uid: client.peer.uid, pid: 0, appID: PromptTrace.bounded(appID))
  }

  /// A prompting evaluation was submitted (queued or about to run): trace it and run the detectors.
  func diagnoseSubmitted(_ evaluation: Evaluation) {
    let trace = PromptTrace(
      evaluation, key: diagnosticsKey(evaluation.client), submittedAt: diagnosticsNow)
    evaluation.trace = trace
    for finding in observability.diagnostics.submitted(
      trace, configuration: configuration.diagnostics, origin: services.startedAt)
    {
      services.log.finding(finding)
      monitor(evaluation, "finding", finding.json.objectValue ?? [:])
    }
  }

  /// The evaluation reached the sensors.
  func traceStarted(_ evaluation: Evaluation) {
    evaluation.trace?.startedAt = diagnosticsNow
  }

  /// A sensor answered a capture asked for at `askedAt` (the clock's time).
  func traceCapture(
    _ evaluation: Evaluation, sensor: String, event: CaptureEvent, askedAt: Duration
  ) {
    guard let trace = evaluation.trace else { return }
    // Known at once only for Passcode= of the configuration; a stored passcode is a slow hash,
    // checked off the loop, so unknown here.
    var correct: Bool?
    if case .passcode(let digits) = event,
      case .configured(let bytes)? = ownerState(evaluation.owner.uid).passcode
    {
      correct = ConstantTime.equal(Array(digits.utf8), bytes)
    }
    // A trace keeps that a passcode was typed, never what: its text stays out of the trace's memory.
    var kept = event
    if case .passcode = event { kept = .passcode("") }
    trace.append(
      TraceEvent(
        at: diagnosticsNow,
        what: .capture(
          sensor: sensor, event: kept, askedAt: askedAt,
          correctPasscode: correct)),
      limit: configuration.diagnostics.traceEventsPerEvaluation)
  }

  /// The broker sent feedback for the evaluation.
  func traceFeedback(_ evaluation: Evaluation, sensor: String, feedback: String, attempt: Int) {
    evaluation.trace?.append(
      TraceEvent(
        at: diagnosticsNow, what: .feedback(sensor: sensor, feedback: feedback, attempt: attempt)),
      limit: configuration.diagnostics.traceEventsPerEvaluation)
  }

  /// The broker moved the evaluation to another sensor (`evaluation.fallback`).
  func traceFallback(_ evaluation: Evaluation, to sensor: String, reason: String) {
    evaluation.trace?.append(
      TraceEvent(at: diagnosticsNow, what: .fallback(to: sensor, reason: reason)),
      limit: configuration.diagnostics.traceEventsPerEvaluation)
  }

  /// The evaluation ended with `result`.
  func diagnoseFinished(_ evaluation: Evaluation, _ result: EvaluationResult) {
    guard let trace = evaluation.trace else { return }
    trace.result = result.name
    trace.reason = result.reason
    observability.diagnostics.finished(trace, at: diagnosticsNow)
  }

  /// The client invalidated a context (before its in-flight evaluation, if any, is ended).
  func diagnoseInvalidated(_ context: AuthContext, client: ClientSession) {
    observability.diagnostics.invalidated(
      contextID: context.id, inFlight: context.inFlight?.trace, key: diagnosticsKey(client),
      at: diagnosticsNow, configuration: configuration.diagnostics)
  }

  /// Whether `client` may see what `uid`'s clients did: admins see all, others their own uid.
  private func maySee(_ uid: UInt32, _ client: ClientSession) -> Bool {
    client.isAdmin || client.peer.uid == uid
  }

  private func findings(_ params: FindingsRequest.Params, client: ClientSession)
    throws(RPCError) -> FindingsReport
  {
    let appID = try params.appID()
    let visible = observability.diagnostics.findings.filter {
      maySee($0.clientUID, client) && (appID == nil || $0.appID == appID)
    }
    var counts: [String: Int] = [:]
    for kind in Finding.Kind.allCases {
      counts[kind.rawValue] = observability.diagnostics.counts[kind] ?? 0
    }
    return FindingsReport(
      counts: counts, kept: configuration.diagnostics.findingsKept,
      findings: visible.map(\.wire),
      uptimeMs: (services.time.now() - services.startedAt).milliseconds,
      repeatsNotReported: observability.diagnostics.repeatsNotReported)
  }

  private func trace(_ params: TraceRequest.Params, client: ClientSession) throws(RPCError)
    -> TraceResult
  {
    let appID = try params.appID()
    let pid = try params.pid()
    let traces = observability.diagnostics.traces { trace in
      maySee(trace.clientUID, client) && (appID == nil || trace.appID == appID)
        && (pid == nil || Int(trace.clientPID) == pid)
    }
    return TraceResult(evaluations: traces.map { $0.traced(since: services.startedAt) })
  }
}
