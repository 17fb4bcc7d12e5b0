// `monitor.event`'s params: a machine-wide event seen by `broker.monitor`.

/// One `monitor.event` notification: a machine-wide evaluation event seen by `broker.monitor`.
public struct MonitorEvent: NotificationPayload, Equatable {
  /// queued, started, feedback, fallback or finished.
  public var event: String
  /// The evaluation it concerns.
  public var requestID: String?
  /// The evaluating client's pid (from SO_PEERCRED).
  public var clientPID: Int?
  /// The evaluating client's uid.
  public var clientUID: Int?
  /// The policy's name.
  public var policy: String?
  /// For `finished`: the outcome's name ("success", "userCancel", …).
  public var result: String?
  /// For `finished` with a failure: the error's name (from `error`, or a `result` other than success).
  public var errorName: String?
  /// Every member, for event-specific details (position, sensor, feedback, to, result…).
  public var params: JSONObject

  /// An evaluation's event: who evaluates what, then the event's own members (`details`).
  public init(
    event: String, requestID: String, clientPID: Int, clientUID: Int, clientName: String,
    policy: Policy, ownerUID: Int, details: JSONObject
  ) {
    var params: JSONObject = [
      "event": .string(event), "requestID": .string(requestID), "clientPID": .int(clientPID),
      "clientUID": .int(clientUID), "clientName": .string(clientName), "policy": policy.json,
      "ownerUID": .int(ownerUID),
    ]
    params.members.append(contentsOf: details.members)
    self.init(params: params)
  }

  /// An event about the machine rather than an evaluation (`environment`).
  public init(machineEvent event: String) { self.init(params: ["event": .string(event)]) }

  /// The params.
  public var object: JSONObject { params }

  /// Read; nil without an `event`.
  public init?(object: JSONObject) {
    guard object["event"]?.stringValue != nil else { return nil }
    self.init(params: object)
  }

  /// Reads the notification's params.
  public init(params: JSONObject) {
    self.params = params
    event = params["event"]?.stringValue ?? ""
    requestID = params["requestID"]?.stringValue
    clientPID = params["clientPID"]?.intValue
    clientUID = params["clientUID"]?.intValue
    policy = params["policy"].flatMap { Policy(json: $0)?.name ?? $0.stringValue }
    switch params["error"] {
    case .object(let error)?:
      errorName =
        error["name"]?.stringValue ?? error["code"]?.intValue.map { ErrorCode(rawValue: $0).name }
    case .string(let name)?: errorName = name
    case .number(let code)?: errorName = code.intValue.map { ErrorCode(rawValue: $0).name }
    default: errorName = nil
    }
    result = params["result"]?.stringValue
    if errorName == nil, let result, result != "success" { errorName = result }
  }
}
