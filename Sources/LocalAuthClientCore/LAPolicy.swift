import FoundationEssentials
import LocalAuthProtocol

/// What an evaluation must prove, with Apple's case names and raw values (LAPolicy).
public typealias LAPolicy = Policy

extension Policy {
  /// Deprecated name of `deviceOwnerAuthenticationWithCompanion` (Apple's raw value 3).
  @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithCompanion")
  public static var deviceOwnerAuthenticationWithWatch: Policy {
    .deviceOwnerAuthenticationWithCompanion
  }
  /// Deprecated name of `deviceOwnerAuthenticationWithBiometricsOrCompanion` (Apple's raw value 4).
  @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithBiometricsOrCompanion")
  public static var deviceOwnerAuthenticationWithBiometricsOrWatch: Policy {
    .deviceOwnerAuthenticationWithBiometricsOrCompanion
  }
}

extension Policy {
  /// Whether the policy can be satisfied with biometry (so a success sets a domain state).
  var usesBiometry: Bool {
    switch self {
    case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthentication,
      .deviceOwnerAuthenticationWithBiometricsOrCompanion:
      true
    default: false
    }
  }
}

/// The state of the enrolled identities (LADomainState): its hash changes whenever
/// the set of enrolled identities changes, and is nil while nothing is enrolled.
public struct LADomainState: Sendable, Equatable {
  /// The biometry part of the domain state (LADomainStateBiometry).
  public struct Biometry: Sendable, Equatable {
    /// The kind of biometry the device offers.
    public var biometryType: LABiometryType
    /// The hash of the enrolled set, or nil when nothing is enrolled.
    public var stateHash: Data?
  }

  /// The companion part of the domain state (LADomainStateCompanion). The daemon does not
  /// report paired companions yet, so the set is empty and the hash nil (see the porting guide).
  public struct Companion: Sendable, Equatable {
    /// The kinds of companion paired with this device.
    public var availableCompanionTypes: Set<LACompanionType> = []
    /// The hash of the paired companions, or nil when none is paired.
    public var stateHash: Data?
    /// The hash of the paired companions of one kind, or nil when none of that kind is paired.
    public func stateHash(for companionType: LACompanionType) -> Data? {
      availableCompanionTypes.contains(companionType) ? stateHash : nil
    }
  }

  /// The biometry part.
  public var biometry: Biometry
  /// The companion part.
  public var companion = Companion()
  /// The hash of the whole domain state (the biometry hash in this version).
  public var stateHash: Data? { biometry.stateHash }

  /// A domain state from a `context.domainState` answer (nil: the daemon could not be asked);
  /// the hash is base64 or opaque text.
  init(_ result: DomainStateResult?, biometryType: LABiometryType = .none) {
    let text = result?.biometryStateHash
    biometry = Biometry(
      biometryType: biometryType,
      stateHash: text.map { Data(base64Encoded: $0) ?? Data($0.utf8) })
  }
}

/// Apple's name for the biometry part of a domain state.
public typealias LADomainStateBiometry = LADomainState.Biometry

/// Apple's name for the companion part of a domain state.
public typealias LADomainStateCompanion = LADomainState.Companion

/// A kind of companion device (LACompanionType).
public enum LACompanionType: Int, Sendable, Hashable, CaseIterable {
  /// An Apple Watch (Apple's raw value 1).
  case watch = 1
  /// A Mac (Apple's raw value 2).
  case mac = 2
}
