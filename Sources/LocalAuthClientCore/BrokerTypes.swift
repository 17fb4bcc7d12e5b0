import LocalAuthProtocol

/// One `monitor.event` notification: a machine-wide evaluation event seen by `broker.monitor`.
public struct MonitorEvent: Sendable, Equatable {
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
