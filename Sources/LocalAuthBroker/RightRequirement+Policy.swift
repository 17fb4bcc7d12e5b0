import LocalAuthProtocol

/// What each requirement of `right.create` means to the broker: the policy its authorization
/// evaluates and its name in the store.
extension RightRequirement {
  /// The policy an authorization evaluates.
  var policy: Policy {
    switch self {
    case .default, .biometry(fallback: .devicePasscode): .deviceOwnerAuthentication
    case .biometry(fallback: .none), .biometryCurrentSet: .deviceOwnerAuthenticationWithBiometrics
    }
  }

  /// The name kept in the store's `requirement` column.
  var storedName: String {
    switch self {
    case .default: "default"
    case .biometry(fallback: .none): "biometry"
    case .biometry(fallback: .devicePasscode): "biometryFallbackDevicePasscode"
    case .biometryCurrentSet: "biometryCurrentSet"
    }
  }

  /// The requirement a store row names, or nil for a name this build does not know.
  init?(storedName: String) {
    switch storedName {
    case "default": self = .default
    case "biometry": self = .biometry(fallback: .none)
    case "biometryFallbackDevicePasscode": self = .biometry(fallback: .devicePasscode)
    case "biometryCurrentSet": self = .biometryCurrentSet
    default: return nil
    }
  }
}
