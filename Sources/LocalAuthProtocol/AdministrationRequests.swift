/// The params of methods that act for an owner: `user`, a name or uid (root and admins only).
public protocol OwnerParams: MethodParams {}

extension OwnerParams {
  /// `user` as sent (a name, a uid, or a uid as a string); nil when absent or null.
  public func user() -> JSONValue? {
    guard let raw = object["user"], raw != .null else { return nil }
    return raw
  }
}

/// The params of the methods that name a sensor: `sensor`.
public protocol SensorParams: OwnerParams {}

extension SensorParams {
  /// `sensor`, required, not empty.
  public func sensor() throws(RPCError) -> String { try reader.nonEmptyString("sensor") }
}

/// `sensors.list {user?}` → `{user, uid, sensors: [{name, kind, available, …}]}`.
public enum ListSensorsRequest: RequestType {
  /// `sensors.list`
  public static let method = "sensors.list"
  /// `{user, uid, sensors}`.
  public typealias Result = SensorListResult

  /// `{user?}`.
  public struct Params: OwnerParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The caller's own sensors.
    public init() { object = [:] }
  }
}

/// `sensors.script {sensor, commands, replace?}` → `{queued}`: admin only.
public enum ScriptSensorRequest: RequestType {
  /// `sensors.script`
  public static let method = "sensors.script"
  /// `{queued}`.
  public typealias Result = ScriptQueuedResult

  /// `{sensor, commands, replace?}`.
  public struct Params: SensorParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that queue `commands` on `sensor` (replacing its script when `replace`).
    public init(sensor: String, commands: [String], replace: Bool) {
      object = [
        "sensor": .string(sensor), "commands": .array(commands.map(JSONValue.string)),
        "replace": .bool(replace),
      ]
    }
    /// `commands`, required: lines of the script language.
    public func commands() throws(RPCError) -> [String] { try reader.strings("commands") }
    /// `replace`, default false.
    public func replace() throws(RPCError) -> Bool { try reader.optionalBool("replace") ?? false }
  }
}

/// The params of `sensors.enroll` and `sensors.unenroll`: `{sensor, identity, user?}`.
public struct EnrollmentParams: SensorParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params that (un)enroll `identity` on `sensor`.
  public init(sensor: String, identity: String, user: String? = nil) {
    object = [
      "sensor": .string(sensor), "identity": .string(identity), "user": user.map(JSONValue.string),
    ]
  }
  /// `identity`, required, not empty.
  public func identity() throws(RPCError) -> String { try reader.nonEmptyString("identity") }
}

/// `sensors.enroll {sensor, identity, user?}` → `{enrolled}`: admin only.
public enum EnrollRequest: RequestType {
  /// `sensors.enroll`
  public static let method = "sensors.enroll"
  /// `{enrolled}`.
  public typealias Result = EnrolledResult
  /// `{sensor, identity, user?}`.
  public typealias Params = EnrollmentParams
}

/// `sensors.unenroll {sensor, identity, user?}` → `{enrolled}`: admin only.
public enum UnenrollRequest: RequestType {
  /// `sensors.unenroll`
  public static let method = "sensors.unenroll"
  /// `{enrolled}`.
  public typealias Result = EnrolledResult
  /// `{sensor, identity, user?}`.
  public typealias Params = EnrollmentParams
}

/// `sensors.setPasscode {passcode, oldPasscode?, user?}` → `{}`.
public enum SetPasscodeRequest: RequestType {
  /// `sensors.setPasscode`
  public static let method = "sensors.setPasscode"
  /// `{}`.
  public typealias Result = PasscodeSetResult

  /// `{passcode, oldPasscode?, user?}`.
  public struct Params: OwnerParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that set (or, with nil, clear) the passcode.
    public init(passcode: String?, oldPasscode: String? = nil, user: String? = nil) {
      object = [
        "passcode": passcode.map(JSONValue.string) ?? .null,
        "oldPasscode": oldPasscode.map(JSONValue.string), "user": user.map(JSONValue.string),
      ]
    }
    /// `passcode`, required: digits, or null to clear (`.some(nil)`); nil when absent.
    public func passcode() throws(RPCError) -> String?? {
      guard object.contains("passcode") else { return nil }
      return .some(try reader.optionalString("passcode"))
    }
    /// `oldPasscode`, optional.
    public func oldPasscode() throws(RPCError) -> String? {
      try reader.optionalString("oldPasscode")
    }
  }
}

/// `sensors.resetLockout {user?}` → `{}`: admin only.
public enum ResetLockoutRequest: RequestType {
  /// `sensors.resetLockout`
  public static let method = "sensors.resetLockout"
  /// `{}`.
  public typealias Result = EmptyResult

  /// `{user?}`.
  public struct Params: OwnerParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that reset the lockout of `user` (nil: the caller's own).
    public init(user: String? = nil) { object = ["user": user.map(JSONValue.string)] }
  }
}

/// `broker.status {}` → counters and sensors.
public enum BrokerStatusRequest: RequestType {
  /// `broker.status`
  public static let method = "broker.status"
  /// The status object.
  public typealias Result = BrokerStatus
  /// None.
  public typealias Params = NoParams
}

/// `broker.monitor {}` → `{subscribed}`: then `monitor.event` notifications (admin only).
public enum MonitorRequest: RequestType {
  /// `broker.monitor`
  public static let method = "broker.monitor"
  /// `{subscribed}`.
  public typealias Result = MonitorResult
  /// None.
  public typealias Params = NoParams
}
