// The requirement of `right.create` (docs/protocol.md, "Rights and keys"): one typed value that
// the client encodes and the server decodes, so it cannot be spelled two ways.

/// What authorizing a right requires: Apple's LAAuthenticationRequirement tree.
public enum RightRequirement: Sendable, Equatable {
  /// Biometry or the device passcode.
  case `default`
  /// Biometry, with what to fall back to when it is unavailable (none: biometry only, any
  /// enrolled set).
  case biometry(fallback: BiometryFallback)
  /// Biometry only, bound to the set enrolled when the right was made (or saved).
  case biometryCurrentSet

  /// The requirement's name on the wire: default, biometry or biometryCurrentSet.
  public var name: String {
    switch self {
    case .default: "default"
    case .biometry: "biometry"
    case .biometryCurrentSet: "biometryCurrentSet"
    }
  }

  /// The `fallback` sent beside the name: only a fallback other than none.
  public var fallback: BiometryFallback? {
    guard case .biometry(let fallback) = self, fallback != .none else { return nil }
    return fallback
  }

  /// Reads the `requirement` (and `fallback`) of `right.create` params, answering invalidParams
  /// naming the field for anything else. Accepted shapes: `{requirement: "default" | "biometry" |
  /// "biometryCurrentSet"}`, `{requirement: "biometry", fallback: "devicePasscode" | "none"}`,
  /// `{requirement: {biometry: {fallback: "devicePasscode"}}}` and `{requirement: {name,
  /// fallback?}}`.
  public init(params object: JSONObject) throws(RPCError) {
    guard let value = object["requirement"] else {
      throw .invalidParams("requirement", "is required")
    }
    let name: String
    let fallback: String?
    switch value {
    case .string(let text):
      name = text
      fallback = try ParamReader(object).optionalString("fallback")
    case .object(let shape) where shape.members.count == 1 && shape["name"] == nil:
      let member = shape.members[0]
      name = member.key
      switch member.value {
      case .object(let options): fallback = try ParamReader(options).optionalString("fallback")
      case .null, .bool(true): fallback = nil
      default:
        throw .invalidParams(
          "requirement", "options must be an object such as {fallback: \"devicePasscode\"}")
      }
    case .object(let shape):
      let reader = ParamReader(shape)
      name = try reader.nonEmptyString("name")
      fallback = try reader.optionalString("fallback")
    default:
      throw .invalidParams("requirement", "must be a string or an object, not \(value.typeName)")
    }
    self = try Self.named(name, fallback: fallback)
  }

  /// The requirement of a name and fallback as read from the wire.
  private static func named(_ name: String, fallback: String?) throws(RPCError) -> Self {
    switch (name, fallback) {
    case ("default", nil): return .default
    case ("biometry", nil): return .biometry(fallback: .none)
    case ("biometry", let given?):
      guard let fallback = BiometryFallback(rawValue: given) else {
        throw .invalidParams("fallback", "must be \"devicePasscode\" or \"none\", not \"\(given)\"")
      }
      return .biometry(fallback: fallback)
    case ("biometryCurrentSet", nil): return .biometryCurrentSet
    case (_, _?) where ["default", "biometryCurrentSet"].contains(name):
      throw .invalidParams("fallback", "is allowed only with the biometry requirement")
    default:
      throw .invalidParams(
        "requirement",
        "must be default, biometry (fallback devicePasscode optional) or biometryCurrentSet")
    }
  }

  /// The params members that carry it: `requirement` by name, and `fallback` when there is one.
  var members: JSONObject {
    ["requirement": .string(name), "fallback": fallback.map { .string($0.rawValue) }]
  }
}

/// What a biometry requirement falls back to (Apple's LABiometryFallbackRequirement).
public enum BiometryFallback: String, Sendable, Equatable {
  /// No fallback: biometry only.
  case none
  /// The device passcode.
  case devicePasscode
}
