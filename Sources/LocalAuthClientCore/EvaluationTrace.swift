import LocalAuthProtocol

/// One sensor event or feedback of a traced evaluation (`broker.trace`), at a millisecond offset
/// from the daemon's start.
public struct TraceStep: Sendable, Equatable {
  /// "capture" (a sensor answered), "feedback" (the broker told the client) or "fallback"
  /// (biometry gave way to `sensor`, for `reason`).
  public var kind: String
  /// When it happened (ms since the daemon started).
  public var atMs: Int
  /// For a capture: when the broker asked the sensor (ms since the daemon started).
  public var askedAtMs: Int?
  /// The sensor's name.
  public var sensor: String
  /// For a capture: what the sensor saw (match, noMatch, userCancel, userFallback,
  /// passcodeEntered, disconnected, or a retry reason).
  public var event: String?
  /// For a capture of a passcode: whether it was the device passcode.
  public var correct: Bool?
  /// For feedback: its name (noMatch, wrongPasscode, a retry reason, …).
  public var feedback: String?
  /// For feedback: the attempt number.
  public var attempt: Int?
  /// For a fallback: why (userFallback, attemptsExhausted, biometryLockout, biometryDisconnected).
  public var reason: String?

  /// Reads one element of an evaluation's `events`.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    kind = o["kind"]?.stringValue ?? ""
    atMs = o["atMs"]?.intValue ?? 0
    askedAtMs = o["askedAtMs"]?.intValue
    sensor = o["sensor"]?.stringValue ?? ""
    event = o["event"]?.stringValue
    correct = o["correct"]?.boolValue
    feedback = o["feedback"]?.stringValue
    attempt = o["attempt"]?.intValue
    reason = o["reason"]?.stringValue
  }
}

/// One prompting evaluation as `broker.trace` reports it: one line of a trace file.
public struct TracedEvaluation: Sendable, Equatable {
  /// The object as the daemon sent it (written back unchanged to trace files).
  public var json: JSONValue
  /// The evaluation's requestID.
  public var requestID: String
  /// Its context.
  public var context: String
  /// The client's declared name.
  public var clientName: String
  /// The client's app id.
  public var appID: String
  /// The client's pid.
  public var clientPID: Int
  /// The client's uid.
  public var clientUID: Int
  /// The policy's name.
  public var policy: String
  /// When it was submitted, started and ended (ms since the daemon started).
  public var submittedMs: Int
  /// When it reached the sensors (nil if it never did).
  public var startedMs: Int?
  /// When it ended (nil while queued or running).
  public var endedMs: Int?
  /// "success" or the error name (nil while queued or running).
  public var result: String?
  /// The error's reason detail ("timeout", "invalidated", …).
  public var reason: String?
  /// Sensor events and feedback in order.
  public var steps: [TraceStep]
  /// Events beyond the daemon's per-evaluation bound, counted but not kept.
  public var droppedEvents: Int

  /// Reads one element of `broker.trace`'s `evaluations`, or one trace-file line.
  public init(json: JSONValue) {
    self.json = json
    let o = json.objectValue ?? [:]
    requestID = o["requestID"]?.stringValue ?? ""
    context = o["context"]?.stringValue ?? ""
    clientName = o["clientName"]?.stringValue ?? ""
    appID = o["appID"]?.stringValue ?? ""
    clientPID = o["clientPID"]?.intValue ?? 0
    clientUID = o["clientUID"]?.intValue ?? 0
    policy = o["policy"]?.stringValue ?? ""
    submittedMs = o["submittedMs"]?.intValue ?? 0
    startedMs = o["startedMs"]?.intValue
    endedMs = o["endedMs"]?.intValue
    result = o["result"]?.stringValue
    reason = o["reason"]?.stringValue
    steps = (o["events"]?.arrayValue ?? []).map(TraceStep.init(json:))
    droppedEvents = o["droppedEvents"]?.intValue ?? 0
  }

  /// The wait in the queue before the sensors, if it started.
  public var queueWaitMs: Int? { startedMs.map { $0 - submittedMs } }
}

/// A trace file that cannot be read: the line and what is wrong.
public struct TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// What is wrong.
  public var reason: String
  /// "line N: reason".
  public var description: String { "line \(line): \(reason)" }
}

/// A client's evaluations as a timeline (`localauthctl trace`), readable from and writable to a
/// trace file of JSON lines, and turnable into sensor scripts that replay it (`localauthctl replay`).
public struct EvaluationTrace: Sendable, Equatable {
  /// The evaluations, oldest first.
  public var evaluations: [TracedEvaluation]

  /// A trace of these evaluations (sorted by submission).
  public init(evaluations: [TracedEvaluation]) {
    self.evaluations = evaluations.sorted { $0.submittedMs < $1.submittedMs }
  }

  /// Reads a trace file: one evaluation object per line; blank lines are skipped.
  public init(jsonLines text: String) throws(TraceFileError) {
    var evaluations: [TracedEvaluation] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
      let value: JSONValue
      do {
        value = try JSONParser.parse(Array(line.utf8))
      } catch {
        throw TraceFileError(line: index + 1, reason: "not JSON (\(error.message))")
      }
      guard let object = value.objectValue, object["requestID"]?.stringValue != nil,
        object["submittedMs"]?.intValue != nil, object["events"]?.arrayValue != nil
      else {
        throw TraceFileError(
          line: index + 1, reason: "not a traced evaluation (needs requestID, submittedMs, events)")
      }
      evaluations.append(TracedEvaluation(json: value))
    }
    self.init(evaluations: evaluations)
  }

  /// The trace file: one JSON object per evaluation, one per line.
  public var jsonLines: String {
    evaluations.map { JSONWriter.string($0.json) + "\n" }.joined()
  }
}
