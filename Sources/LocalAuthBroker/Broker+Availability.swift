import LocalAuthProtocol
import Sensors

extension Broker {
  /// The biometric sensor evaluations use: the first one configured as available.
  var biometricSensor: (any SensorDriver)? { biometricSensorState()?.driver }

  /// That sensor with its state, read once (canEvaluatePolicy is a hot path).
  func biometricSensorState() -> (driver: any SensorDriver, state: SensorState)? {
    for driver in sensors.drivers where driver.kind.isBiometric {
      let state = driver.state()
      if state.available { return (driver, state) }
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

  /// Whether biometry can be used now, or the LAError that says why not (SPEC section 3 order:
  /// hardware, connection, passcode, enrollment, lockout).
  func biometryAvailability() -> Result<any SensorDriver, ErrorCode> {
    guard let (sensor, state) = biometricSensorState() else {
      // A removable accessory that is configured but not available has not been paired.
      let unpaired = sensors.drivers.contains { $0.kind.isBiometric && $0.state().removable }
      return .failure(unpaired ? .biometryNotPaired : .biometryNotAvailable)
    }
    if !state.connected {
      return .failure(state.removable ? .biometryDisconnected : .biometryNotAvailable)
    }
    if device.passcode == nil { return .failure(.passcodeNotSet) }
    if state.enrolled.isEmpty { return .failure(.biometryNotEnrolled) }
    if device.biometryLockedOut { return .failure(.biometryLockout) }
    return .success(sensor)
  }

  /// Whether the passcode can be asked for.
  func passcodeAvailability() -> Result<any SensorDriver, ErrorCode> {
    guard device.passcode != nil,
      let sensor = sensors.drivers.first(where: { $0.kind == .passcode && $0.state().available })
    else { return .failure(.passcodeNotSet) }
    return .success(sensor)
  }

  /// Whether a paired companion is in reach.
  func companionAvailability() -> Result<any SensorDriver, ErrorCode> {
    guard
      let sensor = sensors.drivers.first(where: {
        let state = $0.state()
        return $0.kind == .companion && state.available && state.connected
          && !state.enrolled.isEmpty
      })
    else { return .failure(.companionNotAvailable) }
    return .success(sensor)
  }

  /// The sensor an evaluation of this policy will prompt on first.
  func plannedSensor(for policy: Policy) -> String? {
    switch policy {
    case .deviceOwnerAuthenticationWithBiometrics: return biometricSensor?.name
    case .deviceOwnerAuthentication:
      if case .success(let sensor) = biometryAvailability() { return sensor.name }
      return try? passcodeAvailability().get().name
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return try? companionAvailability().get().name
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      if case .success(let sensor) = biometryAvailability() { return sensor.name }
      return try? companionAvailability().get().name
    }
  }

  /// canEvaluatePolicy: whether the policy could be evaluated now. Never prompts.
  func availability(of policy: Policy) -> Result<Void, ErrorCode> {
    switch policy {
    case .deviceOwnerAuthenticationWithBiometrics:
      return biometryAvailability().map { _ in () }
    case .deviceOwnerAuthentication:
      return passcodeAvailability().map { _ in () }
    case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
      return companionAvailability().map { _ in () }
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      let biometry = biometryAvailability()
      if case .success = biometry { return .success(()) }
      if case .success = companionAvailability() { return .success(()) }
      return biometry.map { _ in () }
    }
  }

  /// The domain state hash (evaluatedPolicyDomainState): changes whenever the enrolled set changes,
  /// null when nothing is enrolled.
  var domainStateHash: String? {
    var entries: [String] = []
    for sensor in sensors.drivers where sensor.kind.isBiometric {
      for enrollment in sensor.state().enrolled {
        entries.append("\(sensor.name)\u{0}\(enrollment.identity)\u{0}\(enrollment.serial)")
      }
    }
    guard !entries.isEmpty else { return nil }
    return DomainStateDigest.hash(entries.sorted().joined(separator: "\u{1}"))
  }
}

/// A stable 128-bit digest (two FNV-1a-64 lanes) of the enrolled set, hex-encoded. It identifies a
/// state; it protects nothing, as the set it hashes is not secret.
enum DomainStateDigest {
  static func hash(_ text: String) -> String {
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142
    for byte in text.utf8 {
      a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      b = (b ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01B3
    }
    return hex(a) + hex(b)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
