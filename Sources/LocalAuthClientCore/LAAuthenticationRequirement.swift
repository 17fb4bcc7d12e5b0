import LocalAuthProtocol

/// What authorizing a right requires (LAAuthenticationRequirement), as sent in `right.create`: a
/// wrapper over the protocol's `RightRequirement`, the one value the daemon decodes.
public struct LAAuthenticationRequirement: Sendable, Equatable {
  /// The requirement as `right.create` carries it.
  public let requirement: RightRequirement

  /// The requirement's name on the wire: default, biometry or biometryCurrentSet.
  public var name: String { requirement.name }
  /// The fallback when biometry is not available ("devicePasscode"), if any.
  public var fallback: String? { requirement.fallback?.rawValue }

  /// Biometry or the device passcode.
  public static let `default` = LAAuthenticationRequirement(requirement: .default)
  /// Biometry only, bound to the set of identities enrolled when the right is made; any change
  /// of that set (an enrollment or removal) invalidates the right for good.
  public static let biometryCurrentSet = LAAuthenticationRequirement(
    requirement: .biometryCurrentSet)
  /// Biometry only, any enrolled set.
  public static let biometry = LAAuthenticationRequirement(requirement: .biometry(fallback: .none))

  /// Biometry, falling back to the device passcode (LABiometryFallbackRequirement.devicePasscode).
  public static func biometry(fallback: LABiometryFallbackRequirement)
    -> LAAuthenticationRequirement
  {
    LAAuthenticationRequirement(requirement: .biometry(fallback: fallback.fallback))
  }

  /// The `right.create` params.
  var params: RightCreateRequest.Params { RightCreateRequest.Params(requirement: requirement) }
}

/// The fallback of a biometry requirement.
public struct LABiometryFallbackRequirement: Sendable, Equatable {
  /// The fallback as the protocol names it.
  public let fallback: BiometryFallback
  /// The wire name.
  public var name: String { fallback.rawValue }
  /// Apple's default: no fallback.
  public static let `default` = LABiometryFallbackRequirement(fallback: .none)
  /// No fallback.
  public static let none = LABiometryFallbackRequirement(fallback: .none)
  /// The device passcode.
  public static let devicePasscode = LABiometryFallbackRequirement(fallback: .devicePasscode)
}
