/// The kind of hardware a sensor driver stands for.
public enum SensorKind: String, Sendable, CaseIterable {
  /// Face ID.
  case faceID
  /// Touch ID.
  case touchID
  /// Optic ID.
  case opticID
  /// The device passcode (a keypad, not biometry).
  case passcode
  /// A paired companion device, such as a watch.
  case companion

  /// Whether this kind is a biometric sensor.
  public var isBiometric: Bool {
    switch self {
    case .faceID, .touchID, .opticID: true
    case .passcode, .companion: false
    }
  }

  /// How many failed matches before the prompt offers the fallback button
  /// (Face ID offers "Try Again" first and the fallback after the second failure).
  public var failuresBeforeFallbackOffered: Int { self == .faceID ? 2 : 1 }

  /// Whether the prompt stops trying once it offers the fallback and waits for the person to choose
  /// it or Cancel (Face ID, after its second failed match), rather than trying up to `configured`
  /// failed matches and ending (Touch ID, Optic ID); Apple's LAPolicy documentation.
  public var stopsTryingAtFallbackOffer: Bool { self == .faceID }

  /// How many failed matches one prompt takes at most, given `MaxBiometricAttempts=`.
  public func failedMatchesAllowed(configured: Int) -> Int {
    stopsTryingAtFallbackOffer ? min(configured, failuresBeforeFallbackOffered) : configured
  }
}

/// What a sensor looks like right now, as the broker sees it. Immutable snapshot.
public struct SensorState: Sendable, Equatable {
  /// The sensor's name (the configuration's section name).
  public var name: String
  /// The kind of hardware.
  public var kind: SensorKind
  /// Whether the hardware is present and usable.
  public var available: Bool
  /// Whether a removable sensor is connected.
  public var connected: Bool
  /// Whether the sensor is removable (disconnection then reports biometryDisconnected).
  public var removable: Bool
  /// The enrolled identities with their enrollment serials, in enrollment order.
  public var enrolled: [Enrollment]

  /// A snapshot.
  public init(
    name: String, kind: SensorKind, available: Bool, connected: Bool, removable: Bool,
    enrolled: [Enrollment]
  ) {
    self.name = name
    self.kind = kind
    self.available = available
    self.connected = connected
    self.removable = removable
    self.enrolled = enrolled
  }
}

/// What decides whether a sensor can be used for an owner now: `SensorState` without its name and
/// identities, so reading it copies nothing (`SensorDriver.readiness(for:)`). Immutable value.
public struct SensorReadiness: Sendable, Equatable {
  /// Whether the hardware is present and usable.
  public var available: Bool
  /// Whether a removable sensor is connected.
  public var connected: Bool
  /// Whether the sensor is removable.
  public var removable: Bool
  /// Whether the owner has at least one identity enrolled.
  public var enrolled: Bool

  /// The readiness a snapshot shows.
  public init(_ state: SensorState) {
    self.init(
      available: state.available, connected: state.connected, removable: state.removable,
      enrolled: !state.enrolled.isEmpty)
  }

  /// A readiness.
  public init(available: Bool, connected: Bool, removable: Bool, enrolled: Bool) {
    self.available = available
    self.connected = connected
    self.removable = removable
    self.enrolled = enrolled
  }
}

/// One enrolled identity; the serial changes when the same identity is enrolled again, as a new template would.
public struct Enrollment: Sendable, Equatable {
  /// The identity's name.
  public var identity: String
  /// A number unique to this enrollment on this sensor.
  public var serial: Int

  /// An enrollment.
  public init(identity: String, serial: Int) {
    self.identity = identity
    self.serial = serial
  }
}
