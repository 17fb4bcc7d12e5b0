import LocalAuthCrypto
import LocalAuthProtocol
import Sensors

extension Broker {
  /// The biometric sensor evaluations use: the first one configured as available.
  var biometricSensor: (any SensorDriver)? {
    sensors.drivers.first { $0.kind.isBiometric && $0.availableNow }
  }

  /// The first biometric sensor available to `owner`, with its readiness, read once
  /// (canEvaluatePolicy is a hot path). Not always `biometricSensor`: fprintd's driver can be
  /// unavailable for one owner (a failed call for that uid) and available for the others.
  func biometricSensorReadiness(owner: UInt32) -> (
    driver: any SensorDriver, readiness: SensorReadiness
  )? {
    for driver in sensors.drivers where driver.kind.isBiometric {
      let readiness = driver.readiness(for: owner)
      if readiness.available { return (driver, readiness) }
    }
    return nil
  }

  /// The kind of biometry offered (LAContext.biometryType): none without biometric hardware.
  var biometryType: BiometryType {
    switch biometricSensor?.kind {
    case .faceID?: .faceID
    case .touchID?: .touchID
    case .opticID?: .opticID
    default: .none
    }
  }

  /// Whether biometry can be used now, or the LAError that says why not (docs/protocol.md, "Errors"
  /// order: hardware, connection, passcode, enrollment, lockout). A system evaluation needs no
  /// passcode (`needsPasscode: false`): none ever satisfies it.
  func biometryAvailability(owner: UInt32, needsPasscode: Bool = true) -> Result<
    any SensorDriver, ErrorCode
  > {
    guard let (sensor, readiness) = biometricSensorReadiness(owner: owner) else {
      // A removable accessory that is configured but not available has not been paired.
      let unpaired = sensors.drivers.contains {
        $0.kind.isBiometric && $0.readiness(for: owner).removable
      }
      return .failure(unpaired ? .biometryNotPaired : .biometryNotAvailable)
    }
    if !readiness.connected {
      return .failure(readiness.removable ? .biometryDisconnected : .biometryNotAvailable)
    }
    let standing = device.owners.standing(owner)
    if needsPasscode && !standing.hasPasscode && loginPasswordSensor(owner: owner) == nil {
      return .failure(.passcodeNotSet)
    }
    if !readiness.enrolled { return .failure(.biometryNotEnrolled) }
    if standing.biometryLockedOut { return .failure(.biometryLockout) }
    return .success(sensor)
  }

  /// Whether the passcode can be asked for, and on which sensor: the first passcode sensor in the
  /// configuration's order that can serve `owner`, a login-password sensor when the owner's account
  /// has a usable password (docs/owners-and-agents.md, "The login password"), a simulated passcode
  /// sensor when the owner has set a localauthd passcode. passcodeNotSet when none can.
  func passcodeAvailability(owner: UInt32) -> Result<any SensorDriver, ErrorCode> {
    let hasPasscode = ownerState(owner).passcode != nil
    for driver in sensors.drivers where driver.kind == .passcode {
      if driver is any LoginPasswordSensor {
        let readiness = driver.readiness(for: owner)
        if readiness.available && readiness.enrolled { return .success(driver) }
      } else if hasPasscode && driver.state(for: owner).available {
        return .success(driver)
      }
    }
    return .failure(.passcodeNotSet)
  }

  /// The login-password sensor that can serve `owner` now (an account with a usable password), if any.
  func loginPasswordSensor(owner: UInt32) -> (any LoginPasswordSensor)? {
    for driver in sensors.drivers where driver.kind == .passcode {
      guard let sensor = driver as? any LoginPasswordSensor else { continue }
      let readiness = sensor.readiness(for: owner)
      if readiness.available && readiness.enrolled { return sensor }
    }
    return nil
  }

  /// What the passcode stage of `owner` asks for on the wire (`secret` in agent.prompt and
  /// agent.passcode): "password" for the login password, "passcode" for localauthd's own.
  func passcodeSecret(owner: UInt32) -> String {
    guard case .success(let sensor) = passcodeAvailability(owner: owner) else { return "passcode" }
    return passcodeSecret(of: sensor)
  }

  /// "password" when `sensor` is a login-password sensor, "passcode" otherwise.
  func passcodeSecret(of sensor: any SensorDriver) -> String {
    sensor is any LoginPasswordSensor ? "password" : "passcode"
  }

  /// Whether a paired companion is in reach.
  func companionAvailability(owner: UInt32) -> Result<any SensorDriver, ErrorCode> {
    guard
      let sensor = sensors.drivers.first(where: {
        let state = $0.state(for: owner)
        return $0.kind == .companion && state.available && state.connected
          && !state.enrolled.isEmpty
      })
    else { return .failure(.companionNotAvailable) }
    return .success(sensor)
  }

  /// The sensor an evaluation of this policy will prompt on first.
  func plannedSensor(for policy: Policy, owner: UInt32) -> String? {
    switch policy {
    case .deviceOwnerAuthenticationWithBiometrics: return biometricSensor?.name
    case .deviceOwnerAuthentication:
      if case .success(let sensor) = biometryAvailability(owner: owner) { return sensor.name }
      return try? passcodeAvailability(owner: owner).get().name
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return try? companionAvailability(owner: owner).get().name
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      if case .success(let sensor) = biometryAvailability(owner: owner) { return sensor.name }
      return try? companionAvailability(owner: owner).get().name
    }
  }

  /// canEvaluatePolicy: whether the policy could be evaluated now for `owner`. Never prompts.
  func availability(of policy: Policy, owner: UInt32) -> Result<Void, ErrorCode> {
    switch policy {
    case .deviceOwnerAuthenticationWithBiometrics:
      return biometryAvailability(owner: owner).map { _ in () }
    case .deviceOwnerAuthentication:
      return passcodeAvailability(owner: owner).map { _ in () }
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return companionAvailability(owner: owner).map { _ in () }
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      let biometry = biometryAvailability(owner: owner)
      if case .success = biometry { return .success(()) }
      if case .success = companionAvailability(owner: owner) { return .success(()) }
      return biometry.map { _ in () }
    }
  }

  /// The domain state hash (evaluatedPolicyDomainState) of `owner`: changes whenever that owner's
  /// enrolled set changes, null when nothing is enrolled. Keyed with a key derived from the device key
  /// (HMAC-SHA-256), so nobody without the key can test a guessed identity name against it offline.
  func domainStateHash(owner: UInt32) -> String? {
    var entries: [String] = []
    for sensor in sensors.drivers where sensor.kind.isBiometric {
      for enrollment in sensor.state(for: owner).enrolled {
        entries.append("\(sensor.name)\u{0}\(enrollment.identity)\u{0}\(enrollment.serial)")
      }
    }
    guard !entries.isEmpty else { return nil }
    let text = "\(owner)\u{1}" + entries.sorted().joined(separator: "\u{1}")
    let digest = HMACSHA256.authenticate(Array(text.utf8), key: device.digestKey)
    return digest.prefix(16).map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }
}
