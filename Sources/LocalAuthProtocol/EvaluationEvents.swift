// The params of the evaluation and state notifications (docs/protocol.md, "Notifications"), as
// types: the broker builds them, the client reads them, and the member names live only here.

/// What a feedback says beyond its name, each member only when it applies.
public struct FeedbackDetails: Sendable, Equatable {
  /// Biometry's attempts are used up (the prompt moves on or ends).
  public var attemptsExhausted: Bool?
  /// Biometry is locked out now.
  public var lockout: Bool?
  /// What the prompt offers now ("fallback").
  public var offer: String?
  /// Consecutive wrong passcodes.
  public var failures: Int?
  /// How long the back-off holds the next guess, in seconds.
  public var retryAfterSeconds: Int?

  /// Details.
  public init(
    attemptsExhausted: Bool? = nil, lockout: Bool? = nil, offer: String? = nil,
    failures: Int? = nil, retryAfterSeconds: Int? = nil
  ) {
    self.attemptsExhausted = attemptsExhausted
    self.lockout = lockout
    self.offer = offer
    self.failures = failures
    self.retryAfterSeconds = retryAfterSeconds
  }

  /// The members that apply, in wire order.
  public var members: [JSONMember] {
    var object = JSONObject()
    if let attemptsExhausted { object["attemptsExhausted"] = .bool(attemptsExhausted) }
    if let lockout { object["lockout"] = .bool(lockout) }
    if let offer { object["offer"] = .string(offer) }
    if let failures { object["failures"] = .int(failures) }
    if let retryAfterSeconds { object["retryAfterSeconds"] = .int(retryAfterSeconds) }
    return object.members
  }

  /// Read from a notification's params.
  public init(object: JSONObject) {
    attemptsExhausted = object["attemptsExhausted"]?.boolValue
    lockout = object["lockout"]?.boolValue
    offer = object["offer"]?.stringValue
    failures = object["failures"]?.intValue
    retryAfterSeconds = object["retryAfterSeconds"]?.intValue
  }
}

/// `evaluation.queued {requestID, id?, position}`.
public struct QueuedEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// The JSON-RPC id of the request that asked for it.
  public var id: RequestID?
  /// Its place in the queue (1: next).
  public var position: Int
  /// An event.
  public init(requestID: String, id: RequestID?, position: Int) {
    self.requestID = requestID
    self.id = id
    self.position = position
  }
  /// The params.
  public var object: JSONObject {
    ["requestID": .string(requestID), "id": id?.json, "position": .int(position)]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, id: object["id"].flatMap(RequestID.init(json:)),
      position: object["position"]?.intValue ?? 0)
  }
}

/// `evaluation.started {requestID, id?, policy}`.
public struct StartedEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// The JSON-RPC id of the request that asked for it.
  public var id: RequestID?
  /// The policy evaluated (a system evaluation's is biometric whatever was asked).
  public var policy: Policy?
  /// An event.
  public init(requestID: String, id: RequestID?, policy: Policy?) {
    self.requestID = requestID
    self.id = id
    self.policy = policy
  }
  /// The params.
  public var object: JSONObject {
    ["requestID": .string(requestID), "id": id?.json, "policy": policy?.json]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, id: object["id"].flatMap(RequestID.init(json:)),
      policy: object["policy"].flatMap(Policy.init(json:)))
  }
}

/// `evaluation.armed {requestID, sensor, attempt}`: the sensor listens now.
public struct ArmedEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// The sensor.
  public var sensor: String
  /// The attempt it listens for.
  public var attempt: Int
  /// An event.
  public init(requestID: String, sensor: String, attempt: Int) {
    self.requestID = requestID
    self.sensor = sensor
    self.attempt = attempt
  }
  /// The params.
  public var object: JSONObject {
    ["requestID": .string(requestID), "sensor": .string(sensor), "attempt": .int(attempt)]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, sensor: object["sensor"]?.stringValue ?? "",
      attempt: object["attempt"]?.intValue ?? 0)
  }
}

/// `evaluation.feedback {requestID, sensor, feedback, attempt, …details}` (and the same members
/// in `agent.feedback`).
public struct FeedbackEvent: NotificationPayload, Equatable {
  /// The member names pam_localauthd reads (a drift test holds them).
  public static let memberNames = [
    "requestID", "sensor", "feedback", "attempt", "attemptsExhausted", "lockout", "offer",
    "failures", "retryAfterSeconds",
  ]

  /// The evaluation.
  public var requestID: String
  /// The sensor.
  public var sensor: String
  /// noMatch, wrongPasscode, a retry reason, passcodeDelay, awaitingChoice, …
  public var feedback: String
  /// The attempt.
  public var attempt: Int
  /// What it says beyond its name.
  public var details: FeedbackDetails
  /// An event.
  public init(
    requestID: String, sensor: String, feedback: String, attempt: Int,
    details: FeedbackDetails = FeedbackDetails()
  ) {
    self.requestID = requestID
    self.sensor = sensor
    self.feedback = feedback
    self.attempt = attempt
    self.details = details
  }
  /// The params.
  public var object: JSONObject {
    var object: JSONObject = [
      "requestID": .string(requestID), "sensor": .string(sensor), "feedback": .string(feedback),
      "attempt": .int(attempt),
    ]
    object.members.append(contentsOf: details.members)
    return object
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, sensor: object["sensor"]?.stringValue ?? "",
      feedback: object["feedback"]?.stringValue ?? "", attempt: object["attempt"]?.intValue ?? 0,
      details: FeedbackDetails(object: object))
  }
}

/// `evaluation.fallback {requestID, to, reason, secret}`: the evaluation moved to the passcode
/// stage, which asks for `secret` ("password": the login password; "passcode").
public struct FallbackEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// "passcode".
  public var to: String
  /// Why (userFallback, attemptsExhausted, biometryLockout, …).
  public var reason: String?
  /// What the stage asks for.
  public var secret: String?
  /// An event.
  public init(requestID: String, to: String, reason: String?, secret: String?) {
    self.requestID = requestID
    self.to = to
    self.reason = reason
    self.secret = secret
  }
  /// The params.
  public var object: JSONObject {
    [
      "requestID": .string(requestID), "to": .string(to), "reason": reason.map(JSONValue.string),
      "secret": secret.map(JSONValue.string),
    ]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, to: object["to"]?.stringValue ?? "",
      reason: object["reason"]?.stringValue, secret: object["secret"]?.stringValue)
  }
}

/// `right.stateChanged {right, state}` and `handoff.stateChanged {handoff, state}`: the handle
/// (a right's, or a handoff's id) and its new state.
public struct StateChangedEvent: NotificationPayload, Equatable {
  /// "right" or "handoff": the member the handle travels in.
  public var member: String
  /// The right's handle or the handoff's id.
  public var handle: String
  /// The new state's name.
  public var state: String
  /// A change.
  public init(member: String, handle: String, state: String) {
    self.member = member
    self.handle = handle
    self.state = state
  }
  /// The params.
  public var object: JSONObject { [member: .string(handle), "state": .string(state)] }
  /// Read `{right|handoff, state}`; nil without either.
  public init?(object: JSONObject) {
    guard let first = object.members.first, first.key == "right" || first.key == "handoff",
      let handle = first.value.stringValue, let state = object["state"]?.stringValue
    else { return nil }
    self.init(member: first.key, handle: handle, state: state)
  }
}
