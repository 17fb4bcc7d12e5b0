// The params of the notifications a prompt agent gets (docs/protocol.md, "Prompt agents").

/// `agent.prompt`: a prompt to show, from what the daemon verified (the client's pid and uid
/// from the kernel, a bound app id, an SSH signature's subject) and what the app said (its name,
/// its unbound app id and its reason: untrusted text).
public struct AgentPromptEvent: NotificationPayload, Equatable {
  /// The evaluation: answer with it.
  public var requestID: String
  /// The requesting client's declared name.
  public var clientName: String
  /// The requesting client's pid.
  public var clientPID: Int
  /// The requesting client's uid.
  public var clientUID: Int
  /// The user whose presence is asked for.
  public var user: String
  /// The policy's name.
  public var policy: String
  /// The app's reason.
  public var localizedReason: String
  /// The sensor prompted first, if any.
  public var sensor: String?
  /// The cancel button's title.
  public var cancelTitle: String
  /// The fallback button's title; nil when hidden.
  public var fallbackTitle: String?
  /// What the passcode stage asks for: "password" or "passcode".
  public var secret: String
  /// The client's app id and whether a binding verified it; nil when it declared none.
  public var appID: AgentAppID?
  /// The kind of the sensor prompted first ("faceID", "touchID", …), if any.
  public var sensorKind: String?
  /// For an SSH signature: what is signed, worded by the daemon.
  public var ssh: AgentSSHSubject?
  /// A prompt.
  public init(
    requestID: String, clientName: String, clientPID: Int, clientUID: Int, user: String,
    policy: String, localizedReason: String, sensor: String?, cancelTitle: String,
    fallbackTitle: String?, secret: String, appID: AgentAppID? = nil, sensorKind: String? = nil,
    ssh: AgentSSHSubject? = nil
  ) {
    self.requestID = requestID
    self.clientName = clientName
    self.clientPID = clientPID
    self.clientUID = clientUID
    self.user = user
    self.policy = policy
    self.localizedReason = localizedReason
    self.sensor = sensor
    self.cancelTitle = cancelTitle
    self.fallbackTitle = fallbackTitle
    self.secret = secret
    self.appID = appID
    self.sensorKind = sensorKind
    self.ssh = ssh
  }
  /// The params.
  public var object: JSONObject {
    var client: JSONObject = [
      "name": .string(clientName), "pid": .int(clientPID), "uid": .int(clientUID),
    ]
    if let appID {
      client["appID"] = .string(appID.id)
      client["appIDBound"] = .bool(appID.bound)
    }
    var object: JSONObject = [
      "requestID": .string(requestID), "client": .object(client),
      "user": .string(user), "policy": .string(policy),
      "localizedReason": .string(localizedReason), "sensor": sensor.map(JSONValue.string) ?? .null,
      "cancelTitle": .string(cancelTitle),
      "fallbackTitle": fallbackTitle.map(JSONValue.string) ?? .null,
      "secret": .string(secret),
    ]
    if let sensorKind { object["sensorKind"] = .string(sensorKind) }
    if let ssh { object["ssh"] = ssh.json }
    return object
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    let client = object["client"]?.objectValue ?? [:]
    self.init(
      requestID: requestID, clientName: client["name"]?.stringValue ?? "",
      clientPID: client["pid"]?.intValue ?? 0, clientUID: client["uid"]?.intValue ?? -1,
      user: object["user"]?.stringValue ?? "",
      policy: object["policy"].flatMap { Policy(json: $0)?.name ?? $0.stringValue } ?? "",
      localizedReason: object["localizedReason"]?.stringValue ?? "",
      sensor: object["sensor"]?.stringValue,
      cancelTitle: object["cancelTitle"]?.stringValue ?? "Cancel",
      fallbackTitle: object["fallbackTitle"]?.stringValue,
      secret: object["secret"]?.stringValue ?? "passcode",
      appID: client["appID"]?.stringValue.map {
        AgentAppID(id: $0, bound: client["appIDBound"]?.boolValue ?? false)
      },
      sensorKind: object["sensorKind"]?.stringValue, ssh: AgentSSHSubject(json: object["ssh"]))
  }
}

/// `agent.feedback`: an evaluation feedback's members (sensor and attempt where it has them), and
/// for `fallback` where the prompt went (`to`, `reason`, `secret`).
public struct AgentFeedbackEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// The feedback's name.
  public var feedback: String
  /// The sensor, when the feedback is about one.
  public var sensor: String?
  /// The attempt, when the feedback is about one.
  public var attempt: Int?
  /// What it says beyond its name.
  public var details: FeedbackDetails
  /// For `fallback`: "passcode".
  public var to: String?
  /// For `fallback`: why.
  public var reason: String?
  /// For `fallback`: what the passcode stage asks for.
  public var secret: String?
  /// An event.
  public init(
    requestID: String, feedback: String, sensor: String? = nil, attempt: Int? = nil,
    details: FeedbackDetails = FeedbackDetails(), to: String? = nil, reason: String? = nil,
    secret: String? = nil
  ) {
    self.requestID = requestID
    self.feedback = feedback
    self.sensor = sensor
    self.attempt = attempt
    self.details = details
    self.to = to
    self.reason = reason
    self.secret = secret
  }
  /// The evaluation's own feedback, as its agent hears it.
  public init(_ event: FeedbackEvent) {
    self.init(
      requestID: event.requestID, feedback: event.feedback, sensor: event.sensor,
      attempt: event.attempt, details: event.details)
  }
  /// The params.
  public var object: JSONObject {
    var object: JSONObject = [
      "requestID": .string(requestID), "sensor": sensor.map(JSONValue.string),
      "feedback": .string(feedback), "attempt": attempt.map(JSONValue.int),
    ]
    object.members.append(contentsOf: details.members)
    if let to { object["to"] = .string(to) }
    if let reason { object["reason"] = .string(reason) }
    if let secret { object["secret"] = .string(secret) }
    return object
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, feedback: object["feedback"]?.stringValue ?? "",
      sensor: object["sensor"]?.stringValue, attempt: object["attempt"]?.intValue,
      details: FeedbackDetails(object: object), to: object["to"]?.stringValue,
      reason: object["reason"]?.stringValue, secret: object["secret"]?.stringValue)
  }
}

/// `agent.passcode`: the prompt asks for the passcode or the login password now.
public struct AgentPasscodeEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// The passcode stage's sensor.
  public var sensor: String
  /// "password" or "passcode".
  public var secret: String
  /// An event.
  public init(requestID: String, sensor: String, secret: String) {
    self.requestID = requestID
    self.sensor = sensor
    self.secret = secret
  }
  /// The params.
  public var object: JSONObject {
    ["requestID": .string(requestID), "sensor": .string(sensor), "secret": .string(secret)]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, sensor: object["sensor"]?.stringValue ?? "",
      secret: object["secret"]?.stringValue ?? "passcode")
  }
}

/// `agent.ended`: the prompt ended with this result (`success` or an LAError name).
public struct AgentEndedEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// "success" or the error's name.
  public var result: String
  /// The error's reason, if any.
  public var reason: String?
  /// An event.
  public init(requestID: String, result: String, reason: String?) {
    self.requestID = requestID
    self.result = result
    self.reason = reason
  }
  /// The params.
  public var object: JSONObject {
    [
      "requestID": .string(requestID), "result": .string(result),
      "reason": reason.map(JSONValue.string),
    ]
  }
  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(
      requestID: requestID, result: object["result"]?.stringValue ?? "",
      reason: object["reason"]?.stringValue)
  }
}
