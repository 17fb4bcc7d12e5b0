// The news a prompt agent gets of an evaluation it does not show (docs/protocol.md,
// "Notifications", to prompt agents; docs/owners-and-agents.md, "Waits no agent shows").

/// `agent.waiting`: an evaluation of the agent's own user waits on a biometric sensor and no prompt
/// agent shows it (a system evaluation: sudo, polkit), so a desktop can say that the sensor waits.
/// Every member is the daemon's: the requestID, the sensor and its kind from the configuration, the
/// client's pid and uid from the kernel; the client's name and reason are root's own words for a
/// system evaluation (pam_localauthd), the app's (untrusted text) otherwise.
public struct AgentWaitingEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String
  /// Whether it is a system evaluation (root acting for the user: sudo, su, polkit).
  public var system: Bool
  /// The user whose presence is asked for (the agent's own).
  public var user: String
  /// The sensor that waits.
  public var sensor: String
  /// Its kind: "faceID", "touchID" or "opticID".
  public var sensorKind: String
  /// The evaluating client's name.
  public var clientName: String
  /// The evaluating client's pid.
  public var clientPID: Int
  /// The evaluating client's uid.
  public var clientUID: Int
  /// The evaluation's reason.
  public var localizedReason: String

  /// An event.
  public init(
    requestID: String, system: Bool, user: String, sensor: String, sensorKind: String,
    clientName: String, clientPID: Int, clientUID: Int, localizedReason: String
  ) {
    self.requestID = requestID
    self.system = system
    self.user = user
    self.sensor = sensor
    self.sensorKind = sensorKind
    self.clientName = clientName
    self.clientPID = clientPID
    self.clientUID = clientUID
    self.localizedReason = localizedReason
  }

  /// The params.
  public var object: JSONObject {
    [
      "requestID": .string(requestID), "system": .bool(system), "user": .string(user),
      "sensor": .string(sensor), "sensorKind": .string(sensorKind),
      "client": ["name": .string(clientName), "pid": .int(clientPID), "uid": .int(clientUID)],
      "localizedReason": .string(localizedReason),
    ]
  }

  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    let client = object["client"]?.objectValue ?? [:]
    self.init(
      requestID: requestID, system: object["system"]?.boolValue ?? false,
      user: object["user"]?.stringValue ?? "", sensor: object["sensor"]?.stringValue ?? "",
      sensorKind: object["sensorKind"]?.stringValue ?? "",
      clientName: client["name"]?.stringValue ?? "", clientPID: client["pid"]?.intValue ?? 0,
      clientUID: client["uid"]?.intValue ?? -1,
      localizedReason: object["localizedReason"]?.stringValue ?? "")
  }
}

/// `agent.waitEnded`: the evaluation of an `agent.waiting` ended (how is not said).
public struct AgentWaitEndedEvent: NotificationPayload, Equatable {
  /// The evaluation.
  public var requestID: String

  /// An event.
  public init(requestID: String) { self.requestID = requestID }

  /// The params.
  public var object: JSONObject { ["requestID": .string(requestID)] }

  /// Read; nil without a requestID.
  public init?(object: JSONObject) {
    guard let requestID = object["requestID"]?.stringValue else { return nil }
    self.init(requestID: requestID)
  }
}

/// `agent.waiting`: to an agent, an evaluation of its user waits on a sensor and no agent shows it.
public enum AgentWaitingNotification: NotificationType {
  /// `agent.waiting`
  public static let method = "agent.waiting"
  /// The wait.
  public typealias Params = AgentWaitingEvent
}

/// `agent.waitEnded`: to an agent, the wait it was told of ended.
public enum AgentWaitEndedNotification: NotificationType {
  /// `agent.waitEnded`
  public static let method = "agent.waitEnded"
  /// The evaluation.
  public typealias Params = AgentWaitEndedEvent
}
