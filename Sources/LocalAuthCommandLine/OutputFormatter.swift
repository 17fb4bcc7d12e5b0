import LocalAuthClientCore
import LocalAuthProtocol

/// Turns results into localauthctl's output: aligned text for people, or one JSON object
/// per line with `--json`. Pure; every function returns the text without a trailing newline.
public struct OutputFormatter: Sendable {
  /// Whether to write JSON.
  public let json: Bool
  /// The wall clock, in milliseconds since 1970 (`doctor` turns the daemon's uptime offsets into
  /// local times with it).
  let now: @Sendable () -> Int

  /// A formatter for text or JSON.
  public init(json: Bool, now: @escaping @Sendable () -> Int = WallClock.nowMilliseconds) {
    self.json = json
    self.now = now
  }

  /// `status`.
  public func status(_ status: BrokerStatus) -> String {
    if json {
      let outcomes = JSONObject(
        status.outcomes.sorted { $0.key < $1.key }.map { JSONMember($0.key, .int($0.value)) })
      return encode([
        "version": .string(status.version),
        "uptimeSeconds": .number(JSONNumber(status.uptimeSeconds)),
        "clients": .int(status.clients), "evaluating": .int(status.evaluating),
        "queued": .int(status.queued),
        "outcomes": .object(outcomes),
        "keyStore": status.keyStore.map(Self.keyStoreObject) ?? .null,
        "keptPasswords": status.keptPasswords.map(JSONValue.int),
        "findings": .object(
          JSONObject(
            status.findings.sorted { $0.key < $1.key }.map { JSONMember($0.key, .int($0.value)) })),
      ])
    }
    let found = status.findings.filter { $0.value > 0 }.sorted { $0.key < $1.key }
    let findings = PrintableText.escaped(
      found.isEmpty
        ? "none yet"
        : "\(status.findingsTotal) ("
          + found.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
          + "; localauthctl doctor explains them)")
    let outcomes = PrintableText.escaped(
      status.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        .joined(separator: " "))
    return """
      localauthd \(status.version)
          Uptime: \(Int(status.uptimeSeconds))s
         Clients: \(status.clients)
      Evaluating: \(status.evaluating)
          Queued: \(status.queued)
        Outcomes: \(outcomes.isEmpty ? "none yet" : outcomes)
        Findings: \(findings)
            Keys: \(PrintableText.escaped(status.keyStore?.line ?? "none (no rights store)"))
      """
        + (status.keptPasswords.map {
          "\n Passwords: kept for \($0) user\($0 == 1 ? "" : "s") (login by presence)"
        } ?? "")
  }

  private static func keyStoreObject(_ keys: KeyStoreSummary) -> JSONValue {
    var object: JSONObject = ["store": .string(keys.store), "deviceKey": .string(keys.deviceKey)]
    if let tcti = keys.tcti { object["tcti"] = .string(tcti) }
    if let unavailable = keys.unavailable { object["unavailable"] = .string(unavailable) }
    return .object(object)
  }

  /// `sensors`: a table.
  public func sensors(_ sensors: [SensorStatus]) -> String {
    if json {
      let list: [JSONValue] = sensors.map { sensor in
        [
          "name": .string(sensor.name), "kind": .string(sensor.kind),
          "available": .bool(sensor.available),
          "enrolled": .array(sensor.enrolled.map(JSONValue.string)),
          "lockedOut": .bool(sensor.lockedOut),
          "failedAttempts": .int(sensor.failedAttempts),
          "defaultMode": sensor.defaultMode.map(JSONValue.string) ?? .null,
          "queuedCommands": .int(sensor.queuedCommands),
          "queuedScript": .array(sensor.queuedScript.map(JSONValue.string)),
        ]
      }
      return encode(["sensors": .array(list)])
    }
    let header = [
      "SENSOR", "KIND", "AVAILABLE", "LOCKED-OUT", "FAILED", "ENROLLED", "DEFAULT", "QUEUED",
    ]
    let rows = sensors.map { sensor in
      [
        sensor.name, sensor.kind, sensor.available ? "yes" : "no", sensor.lockedOut ? "yes" : "no",
        String(sensor.failedAttempts),
        sensor.enrolled.isEmpty ? "-" : sensor.enrolled.joined(separator: ","),
        sensor.defaultMode ?? "-", Self.queued(sensor),
      ].map(PrintableText.escaped)
    }
    return table([header] + rows)
  }

  /// A sensor's queued script: "-", the commands ("SLEEP 800, MATCH"), or their count when only
  /// that is shown.
  static func queued(_ sensor: SensorStatus) -> String {
    if !sensor.queuedScript.isEmpty { return sensor.queuedScript.joined(separator: ", ") }
    return sensor.queuedCommands == 0 ? "-" : "\(sensor.queuedCommands) commands"
  }

  /// `can-evaluate` success.
  public func canEvaluate(_ policy: LAPolicy, biometryType: LABiometryType) -> String {
    if json {
      return encode([
        "canEvaluate": true, "policy": policy.json, "biometryType": .string(biometryType.name),
      ])
    }
    return "\(policy.name): can evaluate (biometry type \(biometryType.name))"
  }

  /// One progress event of `evaluate`.
  public func event(_ event: LAEvaluationEvent) -> String {
    guard json else { return PrintableText.escaped("\(event.requestID): \(event)") }
    var object: JSONObject = ["requestID": .string(event.requestID)]
    switch event {
    case .queued(_, let position):
      object["event"] = "queued"
      object["position"] = .int(position)
    case .started(_, let policy):
      object["event"] = "started"
      object["policy"] = policy?.json
    case .armed(_, let sensor, let attempt):
      object["event"] = "armed"
      object["sensor"] = .string(sensor)
      object["attempt"] = .int(attempt)
    case .feedback(_, let sensor, let feedback, let attempt):
      object["event"] = "feedback"
      object["sensor"] = .string(sensor)
      object["feedback"] = .string(feedback)
      object["attempt"] = .int(attempt)
    case .fallback(_, let to):
      object["event"] = "fallback"
      object["to"] = .string(to)
    }
    return encode(.object(object))
  }

  /// `evaluate` success.
  public func success(_ success: EvaluationSuccess) -> String {
    if json {
      var object = success.object
      object["event"] = "finished"
      object["success"] = true
      return encode(.object(object))
    }
    let how =
      success.reused ? "reused a recent authentication" : "sensor \(success.sensor ?? "unknown")"
    return PrintableText.escaped("\(success.requestID): success (\(success.policy.name), \(how))")
  }

  /// An error from the daemon or the connection (`LAError`, `RPCError`, `ConnectionError`, …).
  public func failure(_ error: any Error) -> String {
    let (name, code, message, requestID) = Self.describe(error)
    if json {
      return encode([
        "success": false,
        "error": [
          "name": .string(name), "code": code.map(JSONValue.int), "message": .string(message),
          "requestID": requestID.map(JSONValue.string),
        ],
      ])
    }
    // An error without a name of its own (the default "error") is not named twice.
    var text = name == "error" ? "error" : "error: \(name)"
    if let code { text += " (\(code))" }
    text += ": \(message)"
    if let requestID { text += " [requestID \(requestID)]" }
    return PrintableText.escaped(text)
  }

  /// The name, code, message and requestID of any error the client throws.
  public static func describe(_ error: any Error) -> (
    name: String, code: Int?, message: String, requestID: String?
  ) {
    switch error {
    case let error as LAError:
      (error.code.name, error.code.rawValue, error.message, error.requestID)
    case let error as RPCError:
      (error.code.name, error.code.rawValue, error.message, error.requestID)
    case let error as LARightStoreError: describe(error.rpcError)
    case let error as ConnectionError: ("cannotConnect", nil, NextSteps.cannotConnect(error), nil)
    case let error as FileWriteError: ("cannotWrite", nil, error.description, nil)
    default: ("error", nil, "\(error)", nil)
    }
  }

  /// One `monitor` event.
  public func monitor(_ event: MonitorEvent) -> String {
    if json { return encode(.object(event.params)) }
    return PrintableText.escaped(monitorLine(event))
  }

  private func monitorLine(_ event: MonitorEvent) -> String {
    var parts = [
      Self.padded(event.event, to: 9), event.requestID ?? "-",
    ]
    if let pid = event.clientPID { parts.append("pid=\(pid)") }
    if let uid = event.clientUID { parts.append("uid=\(uid)") }
    if let name = event.params["clientName"]?.stringValue { parts.append("client=\(name)") }
    if let policy = event.policy { parts.append("policy=\(policy)") }
    for key in [
      "position", "sensor", "feedback", "attempt", "to", "result", "reason", "reused", "kind",
      "earlierRequestID", "gapMs",
    ] {
      if let value = event.params[key], value != .null {
        parts.append("\(key)=\(value.stringValue ?? JSONWriter.string(value))")
      }
    }
    if let error = event.errorName, event.result == nil { parts.append("error=\(error)") }
    return parts.joined(separator: " ")
  }

  /// A one-line confirmation ("queued 3 commands on face"), or its JSON object.
  public func done(_ message: String, _ object: JSONObject = [:]) -> String {
    json ? encode(.object(object)) : message
  }

  func encode(_ value: JSONValue) -> String { JSONWriter.string(value) }

  func table(_ rows: [[String]]) -> String {
    guard let columns = rows.first?.count else { return "" }
    let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == columns - 1
          ? cell : Self.padded(cell, to: widths[column])
      }.joined(separator: "  ")
    }.joined(separator: "\n")
  }

  /// `text` cut or filled with spaces to `width` characters.
  static func padded(_ text: String, to width: Int) -> String {
    text.count >= width
      ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
  }
}
