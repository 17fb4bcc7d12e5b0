// `sensors.list`'s answer: each sensor's status for one owner.

/// One sensor as `sensors.list` reports it.
public struct SensorStatus: Sendable, Equatable {
  /// The configured name ("face", "passcode").
  public var name: String
  /// The kind: faceID, touchID, opticID, passcode, companion.
  public var kind: String
  /// Whether the sensor is connected and usable.
  public var available: Bool
  /// The enrolled identities (only shown to administrators; empty otherwise).
  public var enrolled: [String]
  /// Whether biometry is locked out.
  public var lockedOut: Bool
  /// Consecutive failed attempts.
  public var failedAttempts: Int
  /// What a simulated sensor answers when its script is empty (MATCH, NOMATCH, WAIT); nil for
  /// real hardware.
  public var defaultMode: String?
  /// A simulated sensor's queued script commands (shown to administrators; a typed passcode
  /// masked), and how many there are.
  public var queuedScript: [String]
  /// How many script commands are queued.
  public var queuedCommands: Int
  /// Whether its driver is connected (an exec driver's process, fprintd).
  public var connected: Bool
  /// How many identities are enrolled (shown to everyone).
  public var enrolledCount: Int
  /// For a passcode stage: whether the owner has one (a usable login password for `password`).
  public var passcodeSet: Bool?
  /// Whether the caller may see the enrolled identities and the queued script (an administrator).
  public var detailed: Bool
  /// Whether the sensor is scriptable (a simulated one): `defaultMode` and `queuedCommands` apply.
  public var scriptable: Bool

  /// A sensor's status.
  public init(
    name: String, kind: String, available: Bool, connected: Bool, enrolled: [String],
    enrolledCount: Int, detailed: Bool, lockedOut: Bool, failedAttempts: Int,
    passcodeSet: Bool? = nil, scriptable: Bool = false, defaultMode: String? = nil,
    queuedScript: [String] = [], queuedCommands: Int = 0
  ) {
    self.name = name
    self.kind = kind
    self.available = available
    self.connected = connected
    self.enrolled = enrolled
    self.enrolledCount = enrolledCount
    self.detailed = detailed
    self.lockedOut = lockedOut
    self.failedAttempts = failedAttempts
    self.passcodeSet = passcodeSet
    self.scriptable = scriptable
    self.defaultMode = defaultMode
    self.queuedScript = queuedScript
    self.queuedCommands = queuedCommands
  }

  /// One element of `sensors.list`: what only an administrator sees is left out for others.
  public var json: JSONValue {
    var entry: JSONObject = [
      "name": .string(name), "kind": .string(kind), "available": .bool(available),
      "connected": .bool(connected), "enrolledCount": .int(enrolledCount),
    ]
    if detailed { entry["enrolled"] = .array(enrolled.map(JSONValue.string)) }
    if let passcodeSet { entry["passcodeSet"] = .bool(passcodeSet) }
    entry["lockedOut"] = .bool(lockedOut)
    entry["failedAttempts"] = .int(failedAttempts)
    if scriptable {
      entry["queuedCommands"] = .int(queuedCommands)
      entry["defaultMode"] = defaultMode.map(JSONValue.string)
      if detailed { entry["queuedScript"] = .array(queuedScript.map(JSONValue.string)) }
    }
    return .object(entry)
  }

  /// Reads one element of `sensors.list`.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    name = o["name"]?.stringValue ?? ""
    kind = o["kind"]?.stringValue ?? ""
    available = o["available"]?.boolValue ?? false
    switch o["enrolled"] {
    case .array(let identities)?: enrolled = identities.compactMap(\.stringValue)
    default: enrolled = []
    }
    lockedOut = o["lockedOut"]?.boolValue ?? false
    failedAttempts = o["failedAttempts"]?.intValue ?? 0
    defaultMode = o["defaultMode"]?.stringValue
    queuedScript = o["queuedScript"]?.arrayValue?.compactMap(\.stringValue) ?? []
    queuedCommands = o["queuedCommands"]?.intValue ?? queuedScript.count
    connected = o["connected"]?.boolValue ?? available
    enrolledCount = o["enrolledCount"]?.intValue ?? enrolled.count
    passcodeSet = o["passcodeSet"]?.boolValue
    detailed = o["enrolled"] != nil
    scriptable = o["queuedCommands"] != nil
  }
}

/// `sensors.list`'s answer: whom it is about and each sensor's status for them.
public struct SensorListResult: MethodResult, Equatable {
  /// The owner's account name.
  public var user: String
  /// The owner's uid.
  public var uid: UInt32
  /// The sensors, in configuration order.
  public var sensors: [SensorStatus]
  /// An answer.
  public init(user: String, uid: UInt32, sensors: [SensorStatus]) {
    self.user = user
    self.uid = uid
    self.sensors = sensors
  }
  /// `{user, uid, sensors: […]}`.
  public var json: JSONValue {
    ["user": .string(user), "uid": .int(Int(uid)), "sensors": .array(sensors.map(\.json))]
  }
  /// From `{user, uid, sensors}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let list = object["sensors"]?.arrayValue else {
      return nil
    }
    user = object["user"]?.stringValue ?? ""
    uid = UInt32(clamping: object["uid"]?.intValue ?? 0)
    sensors = list.map(SensorStatus.init(json:))
  }
}
