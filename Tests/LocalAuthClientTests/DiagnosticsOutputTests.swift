import LocalAuthClient
import LocalAuthCommandLine
import LocalAuthProtocol
import Testing

/// `doctor`, `trace` and `replay` output, the replay scripts, and the commands' parsing.
@Suite struct DiagnosticsOutputTests {
  let hostile = "App\u{1B}]0;pwned\u{07}\nlocalauthd: fake line"

  private func evaluation(_ events: [JSONValue], result: String = "userCancel") -> TracedEvaluation
  {
    TracedEvaluation(json: [
      "requestID": "R1", "context": "ctx-1", "clientPID": 42, "clientUID": 1000,
      "clientName": .string(hostile), "appID": .string(hostile),
      "policy": "deviceOwnerAuthentication",
      "submittedMs": 1000, "startedMs": 1010, "endedMs": 1500, "queueWaitMs": 10,
      "result": .string(result), "reason": nil, "events": .array(events), "droppedEvents": 0,
    ])
  }

  @Test func doctorAndTraceEscapeClientChosenText() throws {
    let report = try #require(
      FindingsReport(json: [
        "counts": ["repromptAfterCancel": 1],
        "findings": [
          [
            "kind": "repromptAfterCancel", "earlierRequestID": "R1", "laterRequestID": "R2",
            "gapMs": 40, "earlierOutcome": "userCancel", "clientPID": 42, "clientUID": 1000,
            "clientName": .string(hostile), "appID": .string(hostile), "atMs": 1540,
          ]
        ],
        "uptimeMs": 5000,
      ]))
    // The daemon started 5000 ms before "now"; the finding came 1540 ms after the start.
    let now = 1_800_000_000_000
    let doctor = OutputFormatter(json: false, now: { now }).doctor(report, appID: nil)
    #expect(doctor.contains("evaluated again 40 ms after the user saw userCancel"))
    #expect(doctor.contains("at \(WallClock.format(milliseconds: now - 5000 + 1540)), pid 42"))
    #expect(!doctor.contains("1540 ms"))
    #expect(doctor.contains("R1") && doctor.contains("R2"))
    let timeline = OutputFormatter(json: false).timeline(
      EvaluationTrace(evaluations: [evaluation([])]))
    for output in [doctor, timeline] {
      #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
      #expect(!output.contains("\nlocalauthd: fake line"))
      #expect(output.contains("App\\u{1B}]0;pwned\\u{7}\\nlocalauthd: fake line"))
    }
  }

  @Test func traceListsOverlappingEvaluationsInTimeOrder() {
    let long = evaluation([])  // R1: submitted at 1000, ended at 1500
    let short = TracedEvaluation(json: [
      "requestID": "R2", "context": "ctx-2", "clientPID": 43, "clientUID": 1000,
      "clientName": "app", "appID": "app", "policy": "deviceOwnerAuthentication",
      "submittedMs": 1100, "startedMs": 1100, "endedMs": 1200, "queueWaitMs": 0,
      "result": "success", "reason": nil, "events": [], "droppedEvents": 0,
    ])
    let lines = OutputFormatter(json: false).timeline(
      EvaluationTrace(evaluations: [long, short])
    ).split(separator: "\n").map(String.init)
    let offsets = lines.compactMap { line in
      line.split(separator: " ").first.flatMap { Int($0.dropFirst()) }
    }
    #expect(offsets == offsets.sorted(), "\(lines)")
    #expect(lines.last?.contains("R1  ended: userCancel") == true, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("+200 ms") && $0.contains("R2  ended: success") })
  }

  @Test func noFindingsIsSaidPlainly() throws {
    let report = try #require(
      FindingsReport(json: ["counts": [:], "findings": [], "uptimeMs": 61_000]))
    #expect(
      OutputFormatter(json: false).doctor(report, appID: "com.example.app").hasPrefix(
        "No findings for com.example.app: no evaluation started again after a cancel"))
  }

  @Test func replayScriptsSleepAsLongAsEachCaptureTookThenAnswerTheSame() throws {
    func capture(
      _ event: String, asked: Int, at: Int, sensor: String = "face", correct: Bool? = nil
    )
      -> JSONValue
    {
      [
        "kind": "capture", "sensor": .string(sensor), "event": .string(event),
        "askedAtMs": .int(asked), "atMs": .int(at), "correct": correct.map(JSONValue.bool),
      ]
    }
    let trace = EvaluationTrace(evaluations: [
      evaluation([
        capture("noMatch", asked: 1010, at: 1160),
        ["kind": "feedback", "sensor": "face", "feedback": "noMatch", "attempt": 1, "atMs": 1160],
        capture("faceNotCentered", asked: 1160, at: 1160),
        capture("userFallback", asked: 1160, at: 1300),
        capture("passcodeEntered", asked: 1300, at: 1400, sensor: "passcode", correct: false),
        capture("passcodeEntered", asked: 1400, at: 1450, sensor: "passcode", correct: true),
      ])
    ])
    let scripts = try trace.replayScripts(passcode: "4321")
    #expect(scripts.map(\.sensor) == ["face", "passcode"])
    #expect(
      scripts.first?.commands == [
        "DEFAULT WAIT", "SLEEP 150", "NOMATCH", "RETRY faceNotCentered", "SLEEP 140", "FALLBACK",
      ])
    #expect(
      scripts.last?.commands == [
        "DEFAULT WAIT", "SLEEP 100", "PASSCODE 0", "SLEEP 50", "PASSCODE 4321",
      ])
    #expect(throws: ReplayError.self) { try trace.replayScripts() }
    let odd = EvaluationTrace(evaluations: [
      evaluation([capture("no match; DISCONNECT", asked: 0, at: 0)])
    ])
    #expect(throws: ReplayError.self) { try odd.replayScripts() }
  }

  @Test func aTraceFileRoundTripsAndBadLinesAreNamed() throws {
    let trace = EvaluationTrace(evaluations: [evaluation([])])
    #expect(try EvaluationTrace(jsonLines: trace.jsonLines) == trace)
    let error = #expect(throws: TraceFileError.self) {
      try EvaluationTrace(jsonLines: trace.jsonLines + "{\"requestID\":\"x\"}\n")
    }
    #expect(error?.line == 2)
    #expect(error?.reason.hasPrefix("not a traced evaluation") == true)
  }

  @Test func theCommandsParse() throws {
    #expect(try CommandParser.parse(["doctor"]).command == .doctor(appID: nil))
    #expect(
      try CommandParser.parse(["doctor", "--app", "com.x"]).command == .doctor(appID: "com.x"))
    #expect(try CommandParser.parse(["trace", "--pid=42"]).command == .trace(appID: nil, pid: 42))
    #expect(
      try CommandParser.parse(["--json", "trace", "--app", "a"]).command
        == .trace(appID: "a", pid: nil))
    #expect(
      try CommandParser.parse(["replay", "t.jsonl", "--passcode", "1234"]).command
        == .replay(path: "t.jsonl", passcode: "1234"))
    #expect(throws: UsageError.self) { try CommandParser.parse(["trace", "--pid", "x"]) }
    #expect(throws: UsageError.self) {
      try CommandParser.parse(["trace", "--pid", "1", "--app", "a"])
    }
    #expect(throws: UsageError.self) { try CommandParser.parse(["replay"]) }
    #expect(throws: UsageError.self) {
      try CommandParser.parse(["replay", "t", "--passcode", "12"])
    }
    #expect(throws: UsageError.self) { try CommandParser.parse(["doctor", "--pid", "1"]) }
  }
}
