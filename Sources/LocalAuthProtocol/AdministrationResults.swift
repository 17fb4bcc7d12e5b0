// The answers of docs/protocol.md's administration methods (sensors.*, broker.monitor).

/// `sensors.script`'s answer: how many commands the sensor has queued now.
public struct ScriptQueuedResult: MethodResult, Equatable {
  /// The queued commands.
  public var queued: Int
  /// An answer.
  public init(queued: Int) { self.queued = queued }
  /// `{queued}`.
  public var json: JSONValue { ["queued": .int(queued)] }
  /// From `{queued}`.
  public init?(json: JSONValue) {
    guard let queued = json.objectValue?["queued"]?.intValue else { return nil }
    self.queued = queued
  }
}

/// `sensors.enroll`'s and `sensors.unenroll`'s answer: the identities enrolled now.
public struct EnrolledResult: MethodResult, Equatable {
  /// The identities.
  public var enrolled: [String]
  /// An answer.
  public init(enrolled: [String]) { self.enrolled = enrolled }
  /// `{enrolled: […]}`.
  public var json: JSONValue { ["enrolled": .array(enrolled.map(JSONValue.string))] }
  /// From `{enrolled}`.
  public init?(json: JSONValue) {
    guard let list = json.objectValue?["enrolled"]?.arrayValue else { return nil }
    enrolled = list.compactMap(\.stringValue)
  }
}

/// `broker.monitor`'s answer: the connection now gets every monitor event.
public struct MonitorResult: MethodResult, Equatable {
  /// Always true.
  public var subscribed: Bool
  /// An answer.
  public init(subscribed: Bool = true) { self.subscribed = subscribed }
  /// `{subscribed}`.
  public var json: JSONValue { ["subscribed": .bool(subscribed)] }
  /// From `{subscribed}`.
  public init?(json: JSONValue) {
    guard let subscribed = json.objectValue?["subscribed"]?.boolValue else { return nil }
    self.subscribed = subscribed
  }
}

/// `sensors.setPasscode`'s answer: whose passcode was set or cleared.
public struct PasscodeSetResult: MethodResult, Equatable {
  /// The owner's account name.
  public var user: String
  /// The owner's uid.
  public var uid: UInt32
  /// An answer.
  public init(user: String, uid: UInt32) {
    self.user = user
    self.uid = uid
  }
  /// `{user, uid}`.
  public var json: JSONValue { ["user": .string(user), "uid": .int(Int(uid))] }
  /// From `{user, uid}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let uid = object["uid"]?.intValue else { return nil }
    user = object["user"]?.stringValue ?? ""
    self.uid = UInt32(clamping: uid)
  }
}
