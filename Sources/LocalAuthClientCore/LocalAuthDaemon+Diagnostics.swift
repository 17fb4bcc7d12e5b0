import FoundationEssentials
import LocalAuthProtocol

extension LocalAuthDaemon {
  /// `broker.findings`: the detectors' findings since start, or for one app id.
  public func findings(appID: String? = nil) async throws -> FindingsReport {
    try await connection.call(FindingsRequest.self, .init(appID: appID))
  }

  /// `broker.trace`: the recent prompting evaluations of one app id or pid (all visible ones when
  /// neither is given), oldest first.
  public func trace(appID: String? = nil, pid: Int? = nil) async throws -> EvaluationTrace {
    let params = TraceRequest.Params(appID: appID, pid: pid)
    let result = try await connection.call(TraceRequest.self, params)
    return EvaluationTrace(evaluations: result.evaluations)
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
