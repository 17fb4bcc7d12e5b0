import FoundationEssentials
import LocalAuthProtocol

/// One way of authenticating and whether it can be used now (Apple's LAEnvironmentMechanism).
/// `@unchecked Sendable`: immutable (`let`s only), so usable from any thread; a non-final class
/// cannot prove it for its subclasses.
public class LAEnvironmentMechanism: @unchecked Sendable, Equatable {
  /// Whether the mechanism can authenticate the user now.
  public let isUsable: Bool
  /// Its name for people ("Face ID", "Passcode").
  public let localizedName: String
  /// An SF Symbols name for it, as Apple's.
  public let iconSystemName: String

  init(isUsable: Bool, localizedName: String, iconSystemName: String) {
    self.isUsable = isUsable
    self.localizedName = localizedName
    self.iconSystemName = iconSystemName
  }

  /// Equal when every property of the same kind of mechanism is equal.
  public static func == (lhs: LAEnvironmentMechanism, rhs: LAEnvironmentMechanism) -> Bool {
    lhs.isEqual(to: rhs)
  }

  func isEqual(to other: LAEnvironmentMechanism) -> Bool {
    type(of: self) == type(of: other) && isUsable == other.isUsable
      && localizedName == other.localizedName && iconSystemName == other.iconSystemName
  }
}

/// The device's biometry (Apple's LAEnvironmentMechanismBiometry). `@unchecked Sendable`:
/// immutable.
public final class LAEnvironmentMechanismBiometry: LAEnvironmentMechanism, @unchecked Sendable {
  /// The kind of biometry.
  public let biometryType: LABiometryType
  /// Whether an identity is enrolled.
  public let isEnrolled: Bool
  /// Whether too many failed attempts locked it out.
  public let isLockedOut: Bool
  /// The hash of the enrolled set (empty when nothing is enrolled).
  public let stateHash: Data
  /// Whether the sensor is present but cannot be reached now (disconnected).
  public let builtInSensorInaccessible: Bool

  init(
    biometryType: LABiometryType, isEnrolled: Bool, isLockedOut: Bool, stateHash: Data,
    inaccessible: Bool
  ) {
    self.biometryType = biometryType
    self.isEnrolled = isEnrolled
    self.isLockedOut = isLockedOut
    self.stateHash = stateHash
    builtInSensorInaccessible = inaccessible
    let names: [LABiometryType: (String, String)] = [
      .faceID: ("Face ID", "faceid"), .touchID: ("Touch ID", "touchid"),
      .opticID: ("Optic ID", "opticid"),
    ]
    let (name, icon) = names[biometryType] ?? ("Biometry", "person.badge.key")
    super.init(
      isUsable: isEnrolled && !isLockedOut && !inaccessible, localizedName: name,
      iconSystemName: icon)
  }

  override func isEqual(to other: LAEnvironmentMechanism) -> Bool {
    guard let other = other as? LAEnvironmentMechanismBiometry else { return false }
    return super.isEqual(to: other) && biometryType == other.biometryType
      && isEnrolled == other.isEnrolled && isLockedOut == other.isLockedOut
      && stateHash == other.stateHash
      && builtInSensorInaccessible == other.builtInSensorInaccessible
  }
}

/// The device passcode (Apple's LAEnvironmentMechanismUserPassword). `@unchecked Sendable`:
/// immutable.
public final class LAEnvironmentMechanismUserPassword: LAEnvironmentMechanism, @unchecked Sendable {
  /// Whether a passcode is set.
  public let isSet: Bool

  init(isSet: Bool, isLockedOut: Bool) {
    self.isSet = isSet
    super.init(
      isUsable: isSet && !isLockedOut, localizedName: "Passcode", iconSystemName: "key.fill")
  }

  override func isEqual(to other: LAEnvironmentMechanism) -> Bool {
    guard let other = other as? LAEnvironmentMechanismUserPassword else { return false }
    return super.isEqual(to: other) && isSet == other.isSet
  }
}

/// A paired companion device (Apple's LAEnvironmentMechanismCompanion). `@unchecked Sendable`:
/// immutable.
public final class LAEnvironmentMechanismCompanion: LAEnvironmentMechanism, @unchecked Sendable {
  /// The kind of companion (localauthd's companion sensors are watches).
  public let type: LACompanionType
  /// The hash of the paired companions of this kind; nil (the daemon does not report one).
  public let stateHash: Data?

  init(name: String, isUsable: Bool) {
    type = .watch
    stateHash = nil
    super.init(isUsable: isUsable, localizedName: name, iconSystemName: "applewatch")
  }

  override func isEqual(to other: LAEnvironmentMechanism) -> Bool {
    guard let other = other as? LAEnvironmentMechanismCompanion else { return false }
    return super.isEqual(to: other) && type == other.type && stateHash == other.stateHash
  }
}

/// What the environment offers at one moment (Apple's LAEnvironmentState). Immutable.
public final class LAEnvironmentState: Sendable, Equatable {
  /// The biometry, nil when the device has no biometric sensor.
  public let biometry: LAEnvironmentMechanismBiometry?
  /// The passcode, nil when the device has no passcode sensor.
  public let userPassword: LAEnvironmentMechanismUserPassword?
  /// The companions.
  public let companions: [LAEnvironmentMechanismCompanion]
  /// Every mechanism: biometry, passcode, then companions.
  public var allMechanisms: [LAEnvironmentMechanism] {
    [biometry as LAEnvironmentMechanism?, userPassword].compactMap { $0 } + companions
  }

  init(
    biometry: LAEnvironmentMechanismBiometry?, userPassword: LAEnvironmentMechanismUserPassword?,
    companions: [LAEnvironmentMechanismCompanion]
  ) {
    self.biometry = biometry
    self.userPassword = userPassword
    self.companions = companions
  }

  /// The state `sensors.list` and `context.domainState` describe.
  convenience init(sensors entries: [SensorStatus], domainState: LADomainState) {
    var biometry: LAEnvironmentMechanismBiometry?
    var password: LAEnvironmentMechanismUserPassword?
    var companions: [LAEnvironmentMechanismCompanion] = []
    for entry in entries {
      let (kind, available, lockedOut) = (entry.kind, entry.available, entry.lockedOut)
      let enrolled = entry.enrolledCount > 0
      if let type = LABiometryType(name: kind), type != .none, biometry == nil {
        biometry = LAEnvironmentMechanismBiometry(
          biometryType: type, isEnrolled: enrolled, isLockedOut: lockedOut,
          stateHash: domainState.biometry.stateHash ?? Data(), inaccessible: !available)
      } else if kind == "passcode", password == nil {
        password = LAEnvironmentMechanismUserPassword(
          isSet: entry.passcodeSet ?? false, isLockedOut: lockedOut)
      } else if kind == "companion" {
        companions.append(
          LAEnvironmentMechanismCompanion(
            name: entry.name.isEmpty ? "Companion" : entry.name, isUsable: available && enrolled))
      }
    }
    self.init(biometry: biometry, userPassword: password, companions: companions)
  }

  /// Equal when every mechanism is equal.
  public static func == (lhs: LAEnvironmentState, rhs: LAEnvironmentState) -> Bool {
    lhs.allMechanisms == rhs.allMechanisms
  }
}
