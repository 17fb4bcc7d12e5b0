import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The founding bug against the real daemon and `localauthctl doctor`, the well-behaved app that
/// produces no finding, and a trace recorded in one session and replayed in another.
@Suite(.serialized)
struct DiagnosticsEndToEndTests {
  private func connection(_ daemon: RunningDaemon, app: String) -> LocalAuthConnection {
    LocalAuthConnection(
      socketPath: daemon.socketPath, identity: ClientIdentity(name: app, appID: app))
  }

  /// Windows far longer than any machine needs for a client's next request, so the findings do
  /// not depend on how fast the test runs (the window itself is tested in DiagnosticsTests).
  static let wideWindows = DaemonConfig().diagnostics("RepromptWindowMs", 600_000)
    .diagnostics("ChurnWindowMs", 600_000)

  @Test func doctorNamesBothRequestIDsAndTheGapWhenASharedContextIsResetOnCancel() async throws {
    let daemon = try RunningDaemon(config: Self.wideWindows)
    try daemon.start()
    try await daemon.script("face", ["CANCEL", "MATCH"])
    let link = connection(daemon, app: "com.example.shared")
    defer { link.disconnect() }
    let (cancelled, again) = try await SharedContextApp(connection: link).unlock()
    let first = try #require(cancelled)
    let second = try #require(again)

    let doctor = try runControlTool(["doctor"], socket: daemon.socketPath)
    #expect(doctor.status == 0, "\(doctor.error)")
    #expect(doctor.output.contains("1 re-prompt after cancel"), "\(doctor.output)")
    #expect(doctor.output.contains("com.example.shared"))
    let line = doctor.output.split(separator: "\n").first { $0.contains("evaluated again") }
    #expect(line?.contains(first) == true && line?.contains(second) == true, "\(doctor.output)")
    #expect(line?.contains(" ms after the user saw userCancel") == true)

    let json = try runControlTool(
      ["--json", "doctor", "--app", "com.example.shared"], socket: daemon.socketPath)
    let report = try #require(FindingsReport(json: try JSONParser.parse(Array(json.output.utf8))))
    let reprompt = try #require(report.findings.first { $0.kind == "repromptAfterCancel" })
    #expect(reprompt.earlierRequestID == first && reprompt.laterRequestID == second)
    #expect(reprompt.earlierOutcome == "userCancel")
    #expect(reprompt.gapMs >= 0 && reprompt.gapMs < 600_000)
    #expect(report.findings.contains { $0.kind == "contextChurn" && $0.earlierRequestID == first })
    #expect(report.counts["repromptAfterCancel"] == 1)

    let other = try runControlTool(
      ["doctor", "--app", "com.example.other"], socket: daemon.socketPath)
    #expect(other.output.hasPrefix("No findings for com.example.other"), "\(other.output)")
  }

  @Test func aGuardedAppWithOneContextPerRequestProducesNoFinding() async throws {
    let daemon = try RunningDaemon(config: Self.wideWindows)
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT", "SLEEP 200", "CANCEL"])
    let link = connection(daemon, app: "com.example.guarded")
    defer { link.disconnect() }
    let app = GuardedApp(connection: link)
    // The view's task runs twice for one user action; the guard lets one evaluation through.
    async let first = app.unlock()
    async let second = app.unlock()
    let outcomes = await [first, second]
    #expect(outcomes.filter { $0 == nil }.count == 1)
    #expect(outcomes.contains { $0 == .some(.userCancel) })

    let doctor = try runControlTool(["doctor"], socket: daemon.socketPath)
    #expect(doctor.status == 0)
    #expect(doctor.output.hasPrefix("No findings"), "\(doctor.output)")
    let trace = try await LocalAuthDaemon(connection: link).trace(appID: "com.example.guarded")
    #expect(trace.evaluations.map(\.result) == ["userCancel"])
  }

  /// The scripted session both daemons see: a slow no-match, a retry, a match; then a cancel.
  private func session(_ daemon: RunningDaemon) async throws -> [String] {
    let link = connection(daemon, app: "com.example.replay")
    defer { link.disconnect() }
    var results: [String] = []
    for _ in 0..<2 {
      let context = LAContext(connection: link)
      do {
        _ = try await context.evaluate(
          .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Pay")
        results.append("success")
      } catch let error as LAError {
        results.append(error.code.description)
      }
      context.invalidate()
    }
    return results
  }

  @Test func aRecordedTraceReplaysToTheSameOutcomesFeedbackAndTimings() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "localauthd-trace-\(UUID().uuidString.prefix(8)).jsonl"
    ).path
    defer { try? FileManager.default.removeItem(atPath: file) }

    // Recording: the sensors are scripted as a user would behave.
    let recording = try RunningDaemon()
    try recording.start()
    try await recording.script(
      "face",
      [
        "DEFAULT WAIT", "SLEEP 150", "NOMATCH", "SLEEP 100", "RETRY faceNotCentered", "SLEEP 120",
        "MATCH",
        "SLEEP 200", "CANCEL",
      ])
    let recordedResults = try await session(recording)
    let admin = recording.connection()
    let original = try await LocalAuthDaemon(connection: admin).recordTrace(
      appID: "com.example.replay", to: file)
    admin.disconnect()
    recording.stop()

    // Replaying, on another daemon: only the trace file drives the sensors.
    let replaying = try RunningDaemon()
    try replaying.start()
    let replayAdmin = replaying.connection()
    defer { replayAdmin.disconnect() }
    let broker = LocalAuthDaemon(connection: replayAdmin)
    let script = try await broker.replayTrace(from: file)
    #expect(script == original)
    let replayedResults = try await session(replaying)
    let replayed = try await broker.trace(appID: "com.example.replay")
    // The replay ends by restoring what it changed: the face answers by default again.
    let face = try await broker.sensors().first { $0.name == "face" }
    #expect(
      face?.defaultMode == "MATCH" && face?.queuedCommands == 0, "\(String(describing: face))")

    #expect(recordedResults == ["success", "userCancel"])
    #expect(replayedResults == recordedResults)
    #expect(replayed.evaluations.map(\.result) == original.evaluations.map(\.result))
    func steps(_ trace: EvaluationTrace) -> [[String]] {
      trace.evaluations.map {
        $0.steps.map { "\($0.kind) \($0.sensor) \($0.event ?? $0.feedback ?? "")" }
      }
    }
    #expect(steps(replayed) == steps(original))
    #expect(steps(original).flatMap { $0 }.count == 6)
    // Timings: each capture takes at least as long as it did (the SLEEP is the recorded
    // duration) and at most the stated tolerance longer: 250 ms, times the timeout scale.
    let tolerance = Int(250 * TestTimeout.scale)
    func durations(_ trace: EvaluationTrace) -> [Int] {
      trace.evaluations.flatMap {
        $0.steps.compactMap { step in step.askedAtMs.map { step.atMs - $0 } }
      }
    }
    let (before, after) = (durations(original), durations(replayed))
    #expect(before.count == after.count)
    for (was, now) in zip(before, after) {
      #expect(now >= was && now <= was + tolerance, "capture took \(now) ms, recorded \(was) ms")
    }
  }

  @Test func replayRefusesABrokenTraceFileAndChangesNothing() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let file = daemon.directory + "/broken.jsonl"
    try "{\"requestID\":\"x\",\"submittedMs\":1,\"events\":[]}\nnot json\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let run = try runControlTool(["replay", file], socket: daemon.socketPath)
    #expect(run.status == 2)
    #expect(run.error.contains("line 2: not JSON"), "\(run.error)")
    let sensors = try runControlTool(["--json", "sensors"], socket: daemon.socketPath)
    #expect(sensors.status == 0)
  }
}
