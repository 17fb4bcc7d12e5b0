import FoundationEssentials
import LocalAuthProtocol

/// One detector finding as `broker.findings` reports it.
public struct BrokerFinding: Sendable, Equatable {
  /// repromptAfterCancel, overlappingPrompts or contextChurn.
  public var kind: String
  /// The earlier evaluation (the cancelled, pending or invalidated one).
  public var earlierRequestID: String
  /// The later evaluation (the second prompt).
  public var laterRequestID: String
  /// Milliseconds between the earlier event and the later submission.
  public var gapMs: Int
  /// How the earlier evaluation ended ("userCancel", …) or "queued" / "running" / "invalidated".
  public var earlierOutcome: String
  /// The client's pid, uid, declared name and app id.
  public var clientPID: Int
  /// The client's uid.
  public var clientUID: Int
  /// The client's declared name.
  public var clientName: String
  /// The client's app id.
  public var appID: String
  /// When (ms since the daemon started).
  public var atMs: Int

  /// Reads one element of `broker.findings`'s `findings`.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    kind = o["kind"]?.stringValue ?? ""
    earlierRequestID = o["earlierRequestID"]?.stringValue ?? ""
    laterRequestID = o["laterRequestID"]?.stringValue ?? ""
    gapMs = o["gapMs"]?.intValue ?? 0
    earlierOutcome = o["earlierOutcome"]?.stringValue ?? ""
    clientPID = o["clientPID"]?.intValue ?? 0
    clientUID = o["clientUID"]?.intValue ?? 0
    clientName = o["clientName"]?.stringValue ?? ""
    appID = o["appID"]?.stringValue ?? ""
    atMs = o["atMs"]?.intValue ?? 0
  }
}

/// What the detectors found since the daemon started (`broker.findings`).
public struct FindingsReport: Sendable, Equatable {
  /// Findings of each kind since start, over every client.
  public var counts: [String: Int]
  /// The findings kept (the latest, up to the daemon's bound) that this caller may see.
  public var findings: [BrokerFinding]
  /// How long the daemon has run, in milliseconds.
  public var uptimeMs: Int
  /// Findings counted but not listed or logged: repeats of a kind for a client within 10 s.
  public var repeatsNotReported: Int

  /// Reads `broker.findings`'s result.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    var counts: [String: Int] = [:]
    for member in o["counts"]?.objectValue?.members ?? [] {
      counts[member.key] = member.value.intValue ?? 0
    }
    self.counts = counts
    findings = (o["findings"]?.arrayValue ?? []).map(BrokerFinding.init(json:))
    uptimeMs = o["uptimeMs"]?.intValue ?? 0
    repeatsNotReported = o["repeatsNotReported"]?.intValue ?? 0
  }
}

extension LocalAuthDaemon {
  /// `broker.findings`: the detectors' findings since start, or for one app id.
  public func findings(appID: String? = nil) async throws -> FindingsReport {
    FindingsReport(
      json: try await connection.call(FindingsRequest.self, .init(appID: appID)))
  }

  /// `broker.trace`: the recent prompting evaluations of one app id or pid (all visible ones when
  /// neither is given), oldest first.
  public func trace(appID: String? = nil, pid: Int? = nil) async throws -> EvaluationTrace {
    let params = TraceRequest.Params(appID: appID, pid: pid)
    let result = try await connection.call(TraceRequest.self, params)
    return EvaluationTrace(
      evaluations: (result.objectValue?["evaluations"]?.arrayValue ?? []).map(
        TracedEvaluation.init(json:)))
  }

  /// Scripts the sensors to answer as they did in `trace` (replacing their queued scripts);
  /// returns each sensor with the number of commands queued. Needs root or the admin group.
  @discardableResult
  public func replay(_ trace: EvaluationTrace, passcode: String? = nil) async throws -> [(
    sensor: String, queued: Int
  )] {
    var queued: [(sensor: String, queued: Int)] = []
    let scripts = try trace.replayScripts(passcode: passcode)
    let defaults = Dictionary(
      try await sensors().map { ($0.name, $0.defaultMode) }, uniquingKeysWith: { first, _ in first }
    )
    for script in scripts {
      // The replay ends by restoring the default it changed (its scripts begin with DEFAULT
      // WAIT): once the trace's answers are used up, the sensor answers as before.
      let restore = (defaults[script.sensor] ?? nil).map { ["DEFAULT \($0)"] } ?? []
      queued.append(
        (
          script.sensor,
          try await self.script(
            sensor: script.sensor, commands: script.commands + restore, replace: true)
        ))
    }
    return queued
  }

  /// Test helper, recording side: writes the trace of `appID` (or `pid`) to a trace file that a
  /// later test (or `localauthctl replay`) replays. Returns the trace written.
  @discardableResult
  public func recordTrace(appID: String? = nil, pid: Int? = nil, to path: String) async throws
    -> EvaluationTrace
  {
    let trace = try await trace(appID: appID, pid: pid)
    try Data(trace.jsonLines.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    return trace
  }

  /// Test helper, replaying side: reads a trace file and scripts the sensors to answer the same
  /// way, so the code under test sees the same matches, cancels, retries and timings again.
  @discardableResult
  public func replayTrace(from path: String, passcode: String? = nil) async throws
    -> EvaluationTrace
  {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let trace = try EvaluationTrace(jsonLines: String(decoding: bytes, as: UTF8.self))
    try await replay(trace, passcode: passcode)
    return trace
  }
}
