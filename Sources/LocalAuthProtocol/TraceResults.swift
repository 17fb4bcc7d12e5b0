// `broker.trace`'s answer and the trace file's lines: the evaluations the broker keeps.

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

  /// A step.
  public init(
    kind: String, atMs: Int, askedAtMs: Int? = nil, sensor: String, event: String? = nil,
    correct: Bool? = nil, feedback: String? = nil, attempt: Int? = nil, reason: String? = nil
  ) {
    self.kind = kind
    self.atMs = atMs
    self.askedAtMs = askedAtMs
    self.sensor = sensor
    self.event = event
    self.correct = correct
    self.feedback = feedback
    self.attempt = attempt
    self.reason = reason
  }

  /// The step's object; members that do not apply to its kind are left out.
  public var json: JSONValue {
    [
      "atMs": .int(atMs), "kind": .string(kind), "sensor": .string(sensor),
      "event": event.map(JSONValue.string), "askedAtMs": askedAtMs.map(JSONValue.int),
      "correct": correct.map(JSONValue.bool), "feedback": feedback.map(JSONValue.string),
      "attempt": attempt.map(JSONValue.int), "reason": reason.map(JSONValue.string),
    ]
  }

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

  /// An evaluation as traced.
  public init(
    requestID: String, context: String, clientName: String, appID: String, clientPID: Int,
    clientUID: Int, policy: String, submittedMs: Int, startedMs: Int?, endedMs: Int?,
    result: String?, reason: String?, steps: [TraceStep], droppedEvents: Int
  ) {
    self.requestID = requestID
    self.context = context
    self.clientName = clientName
    self.appID = appID
    self.clientPID = clientPID
    self.clientUID = clientUID
    self.policy = policy
    self.submittedMs = submittedMs
    self.startedMs = startedMs
    self.endedMs = endedMs
    self.result = result
    self.reason = reason
    self.steps = steps
    self.droppedEvents = droppedEvents
  }

  /// The evaluation's object: one line of a trace file.
  public var json: JSONValue {
    let optional = { (value: Int?) in value.map(JSONValue.int) ?? .null }
    return [
      "requestID": .string(requestID), "context": .string(context),
      "clientPID": .int(clientPID), "clientUID": .int(clientUID),
      "clientName": .string(clientName), "appID": .string(appID), "policy": .string(policy),
      "submittedMs": .int(submittedMs), "startedMs": optional(startedMs),
      "endedMs": optional(endedMs), "queueWaitMs": optional(queueWaitMs),
      "result": result.map(JSONValue.string) ?? .null,
      "reason": reason.map(JSONValue.string) ?? .null,
      "events": .array(steps.map(\.json)), "droppedEvents": .int(droppedEvents),
    ]
  }

  /// Reads one element of `broker.trace`'s `evaluations`, or one trace-file line.
  public init(json: JSONValue) {
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

  /// Reads one trace-file line; nil unless it has a requestID, a submittedMs and events.
  public init?(traceLine json: JSONValue) {
    guard let o = json.objectValue, o["requestID"]?.stringValue != nil,
      o["submittedMs"]?.intValue != nil, o["events"]?.arrayValue != nil
    else { return nil }
    self.init(json: json)
  }

  /// The wait in the queue before the sensors, if it started.
  public var queueWaitMs: Int? { startedMs.map { $0 - submittedMs } }
}

/// `broker.trace`'s answer: the traced evaluations the caller may see.
public struct TraceResult: MethodResult, Equatable {
  /// The evaluations.
  public var evaluations: [TracedEvaluation]
  /// An answer.
  public init(evaluations: [TracedEvaluation]) { self.evaluations = evaluations }
  /// `{evaluations: […]}`.
  public var json: JSONValue { ["evaluations": .array(evaluations.map(\.json))] }
  /// From `{evaluations}`.
  public init?(json: JSONValue) {
    guard let list = json.objectValue?["evaluations"]?.arrayValue else { return nil }
    evaluations = list.map(TracedEvaluation.init(json:))
  }
}
