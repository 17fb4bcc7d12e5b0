import LocalAuthCrypto
import LocalAuthProtocol
import RightsStorage
import Sensors

extension Broker {
  /// The routes of the sensor administration methods.
  static var administrationRoutes: [MethodRoute] {
    [
      .answer(ListSensorsRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.listSensors(params, for: client)
      },
      .answer(ScriptSensorRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.scriptSensor(params, client: client)
      },
      .answer(EnrollRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.changeEnrollment(params, client: client, enroll: true)
      },
      .answer(UnenrollRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.changeEnrollment(params, client: client, enroll: false)
      },
      .deferred(SetPasscodeRequest.self) {
        (broker, params, _, client, makeResponder) throws(RPCError) in
        try broker.setPasscode(params, client: client, respond: makeResponder())
        return nil
      },
      .answer(ResetLockoutRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.resetLockout(params, client: client)
      },
    ]
  }

  func requireAdmin(_ client: ClientSession) throws(RPCError) {
    guard client.isAdmin else {
      throw RPCError(
        .permissionDenied, "Permission denied: only root and the admin group may do this.")
    }
  }

  func sensor(named params: some SensorParams) throws(RPCError) -> any SensorDriver {
    let name = try params.sensor()
    guard let sensor = sensors.driver(named: name) else {
      let names = sensors.drivers.map(\.name).joined(separator: ", ")
      throw RPCError(
        .notFound, "No such sensor: \(name). Sensors: \(names.isEmpty ? "none" : names).",
        data: ["field": "sensor"])
    }
    return sensor
  }

  func status() -> BrokerStatus {
    var findings: [String: Int] = [:]
    for kind in Finding.Kind.allCases {
      findings[kind.rawValue] = observability.diagnostics.counts[kind] ?? 0
    }
    return BrokerStatus(
      version: version,
      uptimeSeconds: Double((services.time.now() - services.startedAt).components.seconds),
      clients: clientCount, evaluating: scheduler.running == nil ? 0 : 1,
      queued: scheduler.queue.count,
      storeRequests: rights.backlog.total, outcomes: observability.outcomes, findings: findings,
      keyStore: device.keyStore.map(Self.keyStoreSummary))
  }

  /// Where keys live, as `broker.status` says (docs/protocol.md): `store` ("tpm" when new keys
  /// are made in the TPM, else "file"), `deviceKey` ("tpm" or "file"), `tcti`, and `unavailable`
  /// when no key can be used.
  nonisolated static func keyStoreSummary(_ status: KeyStoreStatus) -> KeyStoreSummary {
    KeyStoreSummary(
      store: status.newKeys.rawValue, deviceKey: status.deviceKey.rawValue, tcti: status.tcti,
      unavailable: status.unavailable)
  }

  func startMonitoring(_ client: ClientSession) -> MonitorResult {
    observability.monitors.subscribe(client, environment: environmentDigest)
    return MonitorResult()
  }

  func listSensors(_ params: ListSensorsRequest.Params, for client: ClientSession)
    throws(RPCError) -> SensorListResult
  {
    let owner = try requestedOwner(params.reader, client: client)
    let person = ownerState(owner.uid)
    return SensorListResult(
      user: owner.name, uid: owner.uid,
      sensors: sensors.drivers.map { driver in
        let state = driver.state(for: owner.uid)
        var status = SensorStatus(
          name: state.name, kind: state.kind.rawValue, available: state.available,
          connected: state.connected, enrolled: state.enrolled.map(\.identity),
          enrolledCount: state.enrolled.count, detailed: client.isAdmin, lockedOut: false,
          failedAttempts: 0)
        if state.kind.isBiometric {
          status.lockedOut = person.biometryLockedOut
          status.failedAttempts = person.consecutiveBiometricFailures
        } else if state.kind == .passcode {
          status.passcodeSet = person.passcode != nil
          status.lockedOut = person.passcodeRetryNotBefore.map { services.time.now() < $0 } ?? false
          status.failedAttempts = person.consecutivePasscodeFailures
        }
        if let scriptable = driver as? any ScriptableSensor {
          status.scriptable = true
          status.queuedCommands = scriptable.queuedCommands
          status.defaultMode = scriptable.defaultBehavior.rawValue
          // Only those who may script a sensor see its script.
          status.queuedScript = client.isAdmin ? scriptable.queuedScript : []
        }
        return status
      })
  }

  func scriptSensor(_ params: ScriptSensorRequest.Params, client: ClientSession) throws(RPCError)
    -> ScriptQueuedResult
  {
    try requireAdmin(client)
    let driver = try sensor(named: params)
    let lines = try params.commands()
    let replace = try params.replace()
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
    noteEnrolment(owner: configuration.setupOwner)
    let queued = scriptable.script(commands, replace: replace)
    noteEnrolment(owner: configuration.setupOwner)
    revalidateAllRights()
    announceEnvironmentChange()
    return ScriptQueuedResult(queued: queued)
  }

  func changeEnrollment(_ params: EnrollmentParams, client: ClientSession, enroll: Bool)
    throws(RPCError) -> EnrolledResult
  {
    try requireAdmin(client)
    let driver = try sensor(named: params)
    let owner = try requestedOwner(params.reader, client: client)
    let identity = try params.identity()
    guard ScriptCommand.isSaneIdentity(identity) else {
      throw .invalidParams("identity", ScriptCommand.identityRule)
    }
    noteEnrolment(owner: owner.uid)
    let enrolled =
      enroll ? driver.enroll(identity, for: owner.uid) : driver.unenroll(identity, for: owner.uid)
    noteEnrolment(owner: owner.uid)
    revalidateAllRights()
    announceEnvironmentChange()
    return EnrolledResult(enrolled: enrolled)
  }

  /// sensors.setPasscode {passcode (4–16 digits, or null to clear), user?, oldPasscode?}: admins set anyone's;
  /// a user sets their own, proving the old one when one is set. A wrong old passcode counts as a failed
  /// passcode (with its back-off). Hashing runs off the loop, so the answer comes later.
  func setPasscode(
    _ params: SetPasscodeRequest.Params, client: ClientSession, respond: any Responder
  ) throws(RPCError) {
    let owner = try requestedOwner(params.reader, client: client)
    guard let passcode = try params.passcode() else {
      throw .invalidParams("passcode", "is required (digits or null)")
    }
    if let passcode {
      guard (4...16).contains(passcode.count), passcode.allSatisfy({ $0.isASCII && $0.isNumber })
      else {
        throw .invalidParams("passcode", "must be 4–16 digits, or null to clear")
      }
    }
    let old = try params.oldPasscode()
    try checkFirstPasscodeSetter(client, owner: owner.uid)
    let current = ownerState(owner.uid)
    let mustProve = !client.isAdmin && current.passcode != nil
    if mustProve {
      guard let old, !old.isEmpty, old.utf8.count <= 64 else {
        throw RPCError(
          .permissionDenied, "Changing your passcode needs the current one ('oldPasscode').",
          data: ["field": "oldPasscode"])
      }
      if let notBefore = current.passcodeRetryNotBefore, services.time.now() < notBefore {
        throw Self.passcodeDelayError(secondsUntil(notBefore))
      }
    }
    // Hashing is slow on purpose and runs on one thread: one change at a time per caller's uid, so
    // nobody can queue up hashing work that delays everyone else's passcode checks.
    let caller = client.peer.uid
    guard device.owners.beginPasscodeChange(by: caller) else {
      throw RPCError.limit("PasscodeChangesPerUID", 1, "passcode changes in progress for this uid")
    }
    Task {
      defer { self.device.owners.endPasscodeChange(by: caller) }
      if mustProve, let old {
        // One guess like any other: judged against the back-off when it is checked.
        switch await self.judgePasscodeGuess(.typed(old), owner: owner.uid) {
        case .right: break
        case .wrong:
          respond.respond(
            .failure(
              RPCError(
                .authenticationFailed, "The current passcode is wrong.",
                data: ["field": "oldPasscode", "reason": "wrongPasscode"])))
          return
        case .notJudged(let seconds):
          respond.respond(.failure(Self.passcodeDelayError(seconds)))
          return
        }
      }
      var hash: PasscodeHash?
      if let passcode {
        do {
          hash = try await self.services.hasher.hash(passcode)
        } catch {
          respond.respond(.failure(RPCError(.internalError, "Cannot hash the passcode.")))
          return
        }
      }
      self.updateOwner(owner.uid) { state in
        state.passcode = hash.map(OwnerPasscode.hashed)
        state.consecutivePasscodeFailures = 0
        state.passcodeRetryNotBefore = nil
      }
      self.revalidateAllRights()
      self.announceEnvironmentChange()
      respond.respond(.success(PasscodeSetResult(user: owner.name, uid: owner.uid)))
    }
  }

  /// The refusal of a passcode guess made while the back-off runs.
  static func passcodeDelayError(_ seconds: Int) -> RPCError {
    RPCError(
      .authenticationFailed, "Too many wrong passcodes; try again later.",
      data: ["reason": "passcodeDelay", "retryAfterSeconds": .int(seconds)])
  }

  func resetLockout(_ params: ResetLockoutRequest.Params, client: ClientSession) throws(RPCError)
    -> EmptyResult
  {
    try requireAdmin(client)
    let owner = try requestedOwner(params.reader, client: client)
    updateOwner(owner.uid) { $0.passcodeSucceeded() }
    announceEnvironmentChange()
    return EmptyResult()
  }
}
