import LocalAuthProtocol

/// What authorizing a right requires (LAAuthenticationRequirement), as sent in `right.create`.
public struct LAAuthenticationRequirement: Sendable, Equatable {
  /// The requirement's name on the wire: default, biometry or biometryCurrentSet.
  public let name: String
  /// The fallback when biometry is not available ("devicePasscode"), if any.
  public let fallback: String?

  /// Biometry or the device passcode.
  public static let `default` = LAAuthenticationRequirement(name: "default", fallback: nil)
  /// Biometry only, bound to the set of identities enrolled when the right is made; any change
  /// of that set (an enrollment or removal) invalidates the right for good.
  public static let biometryCurrentSet = LAAuthenticationRequirement(
    name: "biometryCurrentSet", fallback: nil)
  /// Biometry only, any enrolled set.
  public static let biometry = LAAuthenticationRequirement(name: "biometry", fallback: nil)

  /// Biometry, falling back to the device passcode (LABiometryFallbackRequirement.devicePasscode).
  public static func biometry(fallback: LABiometryFallbackRequirement)
    -> LAAuthenticationRequirement
  {
    LAAuthenticationRequirement(name: "biometry", fallback: fallback.name)
  }

  /// The `right.create` params: `{requirement}` plus `fallback` when set.
  var params: RightCreateRequest.Params {
    RightCreateRequest.Params(requirement: name, fallback: fallback)
  }
}

/// The fallback of a biometry requirement.
public struct LABiometryFallbackRequirement: Sendable, Equatable {
  /// The wire name.
  public let name: String
  /// Apple's default: no fallback.
  public static let `default` = LABiometryFallbackRequirement(name: "none")
  /// No fallback.
  public static let none = LABiometryFallbackRequirement(name: "none")
  /// The device passcode.
  public static let devicePasscode = LABiometryFallbackRequirement(name: "devicePasscode")
}
