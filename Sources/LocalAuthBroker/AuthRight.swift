import LocalAuthProtocol
import RightStore

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

/// An LARight (or an LAPersistedRight loaded from the store) held by one client: its requirement,
/// state and, for biometryCurrentSet, the enrolled set it is bound to. Broker-isolated.
final class AuthRight {
  /// The handle on the wire.
  let id: String
  /// What authorizing it requires.
  let requirement: RightRequirement
  /// The stored right behind this handle; nil for a plain right.
  let persisted: PersistedRightRecord?
  /// The domain state hash a biometryCurrentSet right is bound to (nil: not bound yet).
  var boundDomainState: String?
  /// LARight.State, as sent in `right.state` and `right.stateChanged`.
  var state = RightStateName.unknown
  /// The request id of the authorization in flight, if any.
  var authorizing: String?

  init(
    id: String, requirement: RightRequirement, persisted: PersistedRightRecord? = nil,
    boundDomainState: String?
  ) {
    self.id = id
    self.requirement = requirement
    self.persisted = persisted
    self.boundDomainState = requirement == .biometryCurrentSet ? boundDomainState : nil
  }

  /// Whether the right is authorized now.
  var isAuthorized: Bool { state == RightStateName.authorized }
}
