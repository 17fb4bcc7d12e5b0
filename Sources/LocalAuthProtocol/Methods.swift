/// The method names of protocol version 1 (docs/protocol.md, "Methods").
public enum Method {
  /// `session.hello`
  public static let hello = "session.hello"
  /// `session.setActive`
  public static let setActive = "session.setActive"
  /// `context.create`
  public static let contextCreate = "context.create"
  /// `context.canEvaluatePolicy`
  public static let canEvaluatePolicy = "context.canEvaluatePolicy"
  /// `context.evaluatePolicy`
  public static let evaluatePolicy = "context.evaluatePolicy"
  /// `context.invalidate`
  public static let invalidate = "context.invalidate"
  /// `context.domainState`
  public static let domainState = "context.domainState"
  /// `evaluation.cancel`
  public static let cancel = "evaluation.cancel"
  /// `sensors.list`
  public static let sensorsList = "sensors.list"
  /// `sensors.script`
  public static let sensorsScript = "sensors.script"
  /// `sensors.enroll`
  public static let sensorsEnroll = "sensors.enroll"
  /// `sensors.unenroll`
  public static let sensorsUnenroll = "sensors.unenroll"
  /// `sensors.setPasscode`
  public static let sensorsSetPasscode = "sensors.setPasscode"
  /// `sensors.resetLockout`
  public static let sensorsResetLockout = "sensors.resetLockout"
  /// `broker.status`
  public static let brokerStatus = "broker.status"
  /// `broker.monitor`: subscribe this connection to `monitor.event` notifications.
  public static let brokerMonitor = "broker.monitor"
}

/// The notification names the server sends.
public enum Notification {
  /// `evaluation.queued {requestID, position}`
  public static let queued = "evaluation.queued"
  /// `evaluation.started {requestID, policy}`
  public static let started = "evaluation.started"
  /// `evaluation.feedback {requestID, sensor, feedback, attempt}`
  public static let feedback = "evaluation.feedback"
  /// `evaluation.fallback {requestID, to}`
  public static let fallback = "evaluation.fallback"
  /// `monitor.event {event, requestID, …}` for connections that called `broker.monitor`.
  public static let monitorEvent = "monitor.event"
}

/// The protocol version this module speaks.
public let protocolVersion = 1

/// Options of a context (`context.create`), the LAContext properties.
public struct ContextOptions: Sendable, Equatable {
  /// LAContext.interactionNotAllowed.
  public var interactionNotAllowed: Bool
  /// touchIDAuthenticationAllowableReuseDuration, 0…300 seconds.
  public var reuseDuration: Double
  /// localizedFallbackTitle; an empty string hides the fallback button.
  public var localizedFallbackTitle: String?
  /// localizedCancelTitle.
  public var localizedCancelTitle: String?

  /// The greatest reuse duration (LATouchIDAuthenticationMaximumAllowableReuseDuration).
  public static let maximumReuseDuration = 300.0

  /// Options with LAContext's defaults.
  public init(
    interactionNotAllowed: Bool = false, reuseDuration: Double = 0,
    localizedFallbackTitle: String? = nil,
    localizedCancelTitle: String? = nil
  ) {
    self.interactionNotAllowed = interactionNotAllowed
    self.reuseDuration = reuseDuration
    self.localizedFallbackTitle = localizedFallbackTitle
    self.localizedCancelTitle = localizedCancelTitle
  }

  /// Reads `context.create` params.
  public init(params: JSONObject) throws(RPCError) {
    let reader = ParamReader(params)
    interactionNotAllowed = try reader.optionalBool("interactionNotAllowed") ?? false
    reuseDuration =
      try reader.optionalDouble("reuseDuration", in: 0...Self.maximumReuseDuration) ?? 0
    localizedFallbackTitle = try reader.optionalString("localizedFallbackTitle")
    localizedCancelTitle = try reader.optionalString("localizedCancelTitle")
  }

  /// The `context.create` params.
  public var params: JSONObject {
    [
      "interactionNotAllowed": .bool(interactionNotAllowed),
      "reuseDuration": .number(JSONNumber(reuseDuration)),
      "localizedFallbackTitle": localizedFallbackTitle.map(JSONValue.string),
      "localizedCancelTitle": localizedCancelTitle.map(JSONValue.string),
    ]
  }
}

/// The result of a successful `context.evaluatePolicy`.
public struct EvaluationSuccess: Sendable, Equatable {
  /// The evaluation's id, as logged.
  public var requestID: String
  /// The policy that was evaluated.
  public var policy: Policy
  /// The sensor that proved it ("face", "passcode", …); nil when reused.
  public var sensor: String?
  /// Whether a recent success of the same context was reused without a prompt.
  public var reused: Bool

  /// A success.
  public init(requestID: String, policy: Policy, sensor: String?, reused: Bool) {
    self.requestID = requestID
    self.policy = policy
    self.sensor = sensor
    self.reused = reused
  }

  /// The result object.
  public var json: JSONValue {
    [
      "requestID": .string(requestID), "policy": policy.json,
      "sensor": sensor.map(JSONValue.string) ?? .null,
      "reused": .bool(reused),
    ]
  }

  /// Reads a result object (client side).
  public init?(json: JSONValue) {
    guard let o = json.objectValue, let id = o["requestID"]?.stringValue,
      let p = o["policy"].flatMap(Policy.init(json:))
    else { return nil }
    self.init(
      requestID: id, policy: p, sensor: o["sensor"]?.stringValue,
      reused: o["reused"]?.boolValue ?? false)
  }
}
