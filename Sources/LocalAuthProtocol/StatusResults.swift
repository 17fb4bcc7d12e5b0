// `broker.status`'s answer: the broker's counters and where keys live.

/// The broker's counters from `broker.status`.
public struct BrokerStatus: MethodResult, Equatable {
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
  /// Rights-store requests admitted and not yet answered.
  public var storeRequests: Int
  /// How many evaluations ended with each outcome name ("success", "userCancel", …).
  public var outcomes: [String: Int]
  /// How many findings of each kind `doctor` explains were made since start ("overlappingPrompts",
  /// …; every kind the daemon counts, zero or not).
  public var findings: [String: Int]

  /// Where keys live (`keyStore` of broker.status): nil from a daemon without a rights store.
  public var keyStore: KeyStoreSummary?

  /// For how many users a login password is kept (issue 33): root's answer only, nil for others.
  public var keptPasswords: Int?

  /// All findings since start.
  public var findingsTotal: Int { findings.values.reduce(0, +) }

  /// A status.
  public init(
    version: String, uptimeSeconds: Double, clients: Int, evaluating: Int, queued: Int,
    storeRequests: Int, outcomes: [String: Int], findings: [String: Int],
    keyStore: KeyStoreSummary?
  ) {
    self.version = version
    self.uptimeSeconds = uptimeSeconds
    self.clients = clients
    self.evaluating = evaluating
    self.queued = queued
    self.storeRequests = storeRequests
    self.outcomes = outcomes
    self.findings = findings
    self.keyStore = keyStore
  }

  /// `{version, uptimeSeconds, clients, evaluating, queued, storeRequests, outcomes, findings,
  /// keyStore}`, the counters by name in order.
  public var json: JSONValue {
    func counters(_ counts: [String: Int]) -> JSONValue {
      var object = JSONObject()
      for name in counts.keys.sorted() { object[name] = .int(counts[name] ?? 0) }
      return .object(object)
    }
    return [
      "version": .string(version), "uptimeSeconds": .int(Int(uptimeSeconds)),
      "clients": .int(clients), "evaluating": .int(evaluating), "queued": .int(queued),
      "storeRequests": .int(storeRequests), "outcomes": counters(outcomes),
      "findings": counters(findings), "keyStore": keyStore?.json ?? .null,
      "keptPasswords": keptPasswords.map(JSONValue.int),
    ]
  }

  /// Reads a `broker.status` result.
  public init?(json: JSONValue) {
    guard let o = json.objectValue else { return nil }
    version = o["version"]?.stringValue ?? ""
    uptimeSeconds = o["uptimeSeconds"]?.doubleValue ?? 0
    clients = o["clients"]?.intValue ?? 0
    evaluating = o["evaluating"]?.intValue ?? 0
    queued = o["queued"]?.intValue ?? 0
    storeRequests = o["storeRequests"]?.intValue ?? 0
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
    keptPasswords = o["keptPasswords"]?.intValue
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

  /// A summary.
  public init(store: String, deviceKey: String, tcti: String?, unavailable: String?) {
    self.store = store
    self.deviceKey = deviceKey
    self.tcti = tcti
    self.unavailable = unavailable
  }

  /// `{store, deviceKey, tcti?, unavailable?}`.
  public var json: JSONValue {
    [
      "store": .string(store), "deviceKey": .string(deviceKey),
      "tcti": tcti.map(JSONValue.string), "unavailable": unavailable.map(JSONValue.string),
    ]
  }

  /// Reads the `keyStore` object.
  public init(object: JSONObject) {
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
