import LocalAuthProtocol
import RightStore

/// What authorizing a right requires (LAAuthenticationRequirement).
enum RightRequirement: Equatable {
  /// Biometry or the device passcode.
  case `default`
  /// Biometry only, any enrolled set.
  case biometry
  /// Biometry, falling back to the device passcode.
  case biometryOrPasscode
  /// Biometry only, with the set enrolled when the right was made (or saved).
  case biometryCurrentSet

  /// The policy an authorization evaluates.
  var policy: Policy {
    switch self {
    case .default, .biometryOrPasscode: .deviceOwnerAuthentication
    case .biometry, .biometryCurrentSet: .deviceOwnerAuthenticationWithBiometrics
    }
  }

  /// The name kept in the store's `requirement` column.
  var storedName: String {
    switch self {
    case .default: "default"
    case .biometry: "biometry"
    case .biometryOrPasscode: "biometryFallbackDevicePasscode"
    case .biometryCurrentSet: "biometryCurrentSet"
    }
  }

  /// The requirement a store row names, or nil for a name this build does not know.
  init?(storedName: String) {
    switch storedName {
    case "default": self = .default
    case "biometry": self = .biometry
    case "biometryFallbackDevicePasscode": self = .biometryOrPasscode
    case "biometryCurrentSet": self = .biometryCurrentSet
    default: return nil
    }
  }

  /// Reads `right.create` params. Accepted shapes: `{requirement: "default" | "biometry" |
  /// "biometryCurrentSet"}`, `{requirement: "biometry", fallback: "devicePasscode" | "none"}`,
  /// `{requirement: {biometry: {fallback: "devicePasscode"}}}` and `{requirement: {name, fallback?}}`.
  init(params: RightCreateRequest.Params) throws(RPCError) {
    let value = try params.requirement()
    let name: String
    let fallback: String?
    switch value {
    case .string(let text):
      name = text
      fallback = try params.fallback()
    case .object(let object) where object.members.count == 1 && object["name"] == nil:
      let member = object.members[0]
      name = member.key
      switch member.value {
      case .object(let options): fallback = try ParamReader(options).optionalString("fallback")
      case .null, .bool(true): fallback = nil
      default:
        throw .invalidParams(
          "requirement", "options must be an object such as {fallback: \"devicePasscode\"}")
      }
    case .object(let object):
      let reader = ParamReader(object)
      name = try reader.nonEmptyString("name")
      fallback = try reader.optionalString("fallback")
    default:
      throw .invalidParams("requirement", "must be a string or an object, not \(value.typeName)")
    }
    switch (name, fallback) {
    case ("default", nil): self = .default
    case ("biometry", nil), ("biometry", "none"): self = .biometry
    case ("biometry", "devicePasscode"): self = .biometryOrPasscode
    case ("biometryCurrentSet", nil): self = .biometryCurrentSet
    case ("biometry", let other?):
      throw .invalidParams("fallback", "must be \"devicePasscode\" or \"none\", not \"\(other)\"")
    case (_, _?) where ["default", "biometryCurrentSet"].contains(name):
      throw .invalidParams("fallback", "is allowed only with the biometry requirement")
    default:
      throw .invalidParams(
        "requirement",
        "must be default, biometry (fallback devicePasscode optional) or biometryCurrentSet")
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
