import LocalAuthProtocol

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
  }
}

/// The broker's counters from `broker.status`.
public struct BrokerStatus: Sendable, Equatable {
  /// The daemon's version.
  public var version: String
  /// Seconds since the daemon started.
  public var uptimeSeconds: Double
  /// Connected clients.
  public var clients: Int
  /// Evaluations running now (0 or 1).
  public var evaluating: Int
  /// Evaluations waiting in the queue.
  public var queued: Int
  /// How many evaluations ended with each outcome name ("success", "userCancel", …).
  public var outcomes: [String: Int]
  /// How many findings of each kind `doctor` explains were made since start ("overlappingPrompts",
  /// …; every kind the daemon counts, zero or not).
  public var findings: [String: Int]

  /// Where keys live (`keyStore` of broker.status): nil from a daemon without a rights store.
  public var keyStore: KeyStoreSummary?

  /// All findings since start.
  public var findingsTotal: Int { findings.values.reduce(0, +) }

  /// Reads a `broker.status` result.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    version = o["version"]?.stringValue ?? ""
    uptimeSeconds = o["uptimeSeconds"]?.doubleValue ?? 0
    clients = o["clients"]?.intValue ?? 0
    evaluating = o["evaluating"]?.intValue ?? 0
    queued = o["queued"]?.intValue ?? 0
    var outcomes: [String: Int] = [:]
    for member in o["outcomes"]?.objectValue?.members ?? [] {
      outcomes[member.key] = member.value.intValue ?? 0
    }
    self.outcomes = outcomes
    var findings: [String: Int] = [:]
    for member in o["findings"]?.objectValue?.members ?? [] {
      findings[member.key] = member.value.intValue ?? 0
    }
    self.findings = findings
    keyStore = o["keyStore"]?.objectValue.map(KeyStoreSummary.init(object:))
  }
}

/// Where the daemon keeps its keys, as `broker.status` says (docs/protocol.md).
public struct KeyStoreSummary: Sendable, Equatable {
  /// Where new keys are made: "tpm" or "file".
  public var store: String
  /// Where the device key is kept: "tpm" (sealed by it) or "file".
  public var deviceKey: String
  /// The TPM's TCTI, when there is one.
  public var tcti: String?
  /// Why no key can be used, when none can.
  public var unavailable: String?

  /// Reads the `keyStore` object.
  init(object: JSONObject) {
    store = object["store"]?.stringValue ?? "file"
    deviceKey = object["deviceKey"]?.stringValue ?? "file"
    tcti = object["tcti"]?.stringValue
    unavailable = object["unavailable"]?.stringValue
  }

  /// One line: "tpm (TCTI, device key sealed by the TPM)", "file", and why keys are unavailable.
  public var line: String {
    var text = store
    if let tcti {
      text +=
        " (\(tcti), "
        + (deviceKey == "tpm" ? "device key sealed by the TPM" : "device key in its file") + ")"
    }
    if let unavailable { text += "; unavailable: \(unavailable)" }
    return text
  }
}

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
