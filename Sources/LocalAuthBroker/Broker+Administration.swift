import LocalAuthProtocol
import Sensors

extension Broker {
  func requireAdmin(_ client: ClientSession) throws(RPCError) {
    guard client.isAdmin else {
      throw RPCError(
        .permissionDenied, "Permission denied: only root and the admin group may do this.")
    }
  }

  func sensor(named params: ParamReader) throws(RPCError) -> any SensorDriver {
    let name = try params.nonEmptyString("sensor")
    guard let sensor = sensors.driver(named: name) else {
      throw RPCError(.notFound, "No such sensor: \(name).", data: ["field": "sensor"])
    }
    return sensor
  }

  func status() -> JSONValue {
    var counts = JSONObject()
    for name in outcomes.keys.sorted() { counts[name] = .int(outcomes[name] ?? 0) }
    let uptime = time.now() - startedAt
    return [
      "version": .string(version), "uptimeSeconds": .int(Int(uptime.components.seconds)),
      "clients": .int(clients.count), "evaluating": .int(running == nil ? 0 : 1),
      "queued": .int(queue.count),
      "outcomes": .object(counts),
    ]
  }

  func startMonitoring(_ client: ClientSession) -> JSONValue {
    if !client.monitoring {
      baselineEnvironment()
      client.monitoring = true
      monitorCount += 1
    }
    return ["subscribed": true]
  }

  func listSensors(for client: ClientSession) -> JSONValue {
    .object([
      "sensors": .array(
        sensors.drivers.map { driver in
          let state = driver.state()
          var entry: JSONObject = [
            "name": .string(state.name), "kind": .string(state.kind.rawValue),
            "available": .bool(state.available), "connected": .bool(state.connected),
            "enrolledCount": .int(state.enrolled.count),
          ]
          if client.isAdmin {
            entry["enrolled"] = .array(state.enrolled.map { .string($0.identity) })
          }
          if state.kind.isBiometric {
            entry["lockedOut"] = .bool(device.biometryLockedOut)
            entry["failedAttempts"] = .int(device.consecutiveBiometricFailures)
          } else if state.kind == .passcode {
            entry["passcodeSet"] = .bool(device.passcode != nil)
            entry["lockedOut"] = .bool(
              device.passcodeRetryNotBefore.map { time.now() < $0 } ?? false)
            entry["failedAttempts"] = .int(device.consecutivePasscodeFailures)
          } else {
            entry["lockedOut"] = false
            entry["failedAttempts"] = 0
          }
          if let scriptable = driver as? any ScriptableSensor {
            entry["queuedCommands"] = .int(scriptable.queuedCommands)
          }
          return .object(entry)
        })
    ])
  }

  func scriptSensor(_ params: ParamReader, client: ClientSession) throws(RPCError) -> JSONValue {
    try requireAdmin(client)
    let driver = try sensor(named: params)
    let lines = try params.strings("commands")
    let replace = try params.optionalBool("replace") ?? false
    guard let scriptable = driver as? any ScriptableSensor else {
      throw RPCError(
        .invalidParams, "Sensor \(driver.name) cannot be scripted.", data: ["field": "sensor"])
    }
    let commands: [ScriptCommand]
    do {
      commands = try ScriptCommand.parse(lines: lines)
    } catch {
      throw RPCError(
        .invalidParams, "Invalid params: 'commands' \(error.description); nothing was applied.",
        data: ["field": "commands", "line": .int(error.line)])
    }
    let queued = scriptable.script(commands, replace: replace)
    revalidateAllRights()
    announceEnvironmentChange()
    return ["queued": .int(queued)]
  }

  func changeEnrollment(_ params: ParamReader, client: ClientSession, enroll: Bool) throws(RPCError)
    -> JSONValue
  {
    try requireAdmin(client)
    let driver = try sensor(named: params)
    let identity = try params.nonEmptyString("identity")
    do {
      _ = try ScriptCommand.parse(lines: ["ENROLL \(identity)"])
    } catch {
      throw .invalidParams("identity", "must be 1–64 letters, digits, '-', '_', '.', '@'")
    }
    let enrolled = enroll ? driver.enroll(identity) : driver.unenroll(identity)
    revalidateAllRights()
    announceEnvironmentChange()
    return ["enrolled": .array(enrolled.map(JSONValue.string))]
  }

  func setPasscode(_ params: ParamReader, client: ClientSession) throws(RPCError) -> JSONValue {
    try requireAdmin(client)
    guard params.object.contains("passcode") else {
      throw .invalidParams("passcode", "is required (digits or null)")
    }
    let passcode = try params.optionalString("passcode")
    if let passcode {
      guard (4...16).contains(passcode.count), passcode.allSatisfy({ $0.isASCII && $0.isNumber })
      else {
        throw .invalidParams("passcode", "must be 4–16 digits, or null to clear")
      }
    }
    device.passcode = passcode
    device.consecutivePasscodeFailures = 0
    device.passcodeRetryNotBefore = nil
    announceEnvironmentChange()
    return [:]
  }

  func resetLockout(client: ClientSession) throws(RPCError) -> JSONValue {
    try requireAdmin(client)
    device.passcodeSucceeded()
    announceEnvironmentChange()
    return [:]
  }
}
