/// What an evaluation must prove: the LAPolicy cases with their raw values.
public enum Policy: Int, Sendable, CaseIterable, CustomStringConvertible {
  /// Biometry only (Face ID, Touch ID, Optic ID).
  case deviceOwnerAuthenticationWithBiometrics = 1
  /// Biometry, falling back to the device passcode.
  case deviceOwnerAuthentication = 2
  /// A paired companion device (a watch).
  case deviceOwnerAuthenticationWithCompanion = 3
  /// Biometry or a paired companion.
  case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4
  /// A companion worn on the wrist.
  case deviceOwnerAuthenticationWithWristDetection = 5

  /// The policy's name as Apple spells it.
  public var name: String {
    switch self {
    case .deviceOwnerAuthenticationWithBiometrics: "deviceOwnerAuthenticationWithBiometrics"
    case .deviceOwnerAuthentication: "deviceOwnerAuthentication"
    case .deviceOwnerAuthenticationWithCompanion: "deviceOwnerAuthenticationWithCompanion"
    case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      "deviceOwnerAuthenticationWithBiometricsOrCompanion"
    case .deviceOwnerAuthenticationWithWristDetection: "deviceOwnerAuthenticationWithWristDetection"
    }
  }

  /// The name.
  public var description: String { name }

  /// A policy from its name or its raw value given as text ("2").
  public init?(name: String) {
    if let raw = Int(name), let policy = Policy(rawValue: raw) {
      self = policy
      return
    }
    guard let policy = Policy.allCases.first(where: { $0.name == name }) else { return nil }
    self = policy
  }

  /// A policy from JSON: its name or its raw value.
  public init?(json: JSONValue) {
    switch json {
    case .string(let s): self.init(name: s)
    case .number(let n):
      guard let raw = n.intValue, let policy = Policy(rawValue: raw) else { return nil }
      self = policy
    default: return nil
    }
  }

  /// The policy's name as JSON.
  public var json: JSONValue { .string(name) }
}

/// The kind of biometry the device offers (LABiometryType).
public enum BiometryType: String, Sendable, CaseIterable {
  /// No biometric sensor.
  case none
  /// Touch ID.
  case touchID
  /// Face ID.
  case faceID
  /// Optic ID.
  case opticID
}
