/// The kind of biometry the device offers, with Apple's raw values (LABiometryType).
public enum LABiometryType: Int, Sendable, CaseIterable, CustomStringConvertible {
  /// No biometric sensor.
  case none = 0
  /// Touch ID.
  case touchID = 1
  /// Face ID.
  case faceID = 2
  /// Optic ID.
  case opticID = 4

  /// Deprecated name of `touchID`.
  @available(*, deprecated, renamed: "touchID")
  public static var typeTouchID: LABiometryType { .touchID }

  /// Deprecated name of `none` (Apple's `LABiometryNone`).
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "none")
  public static var LABiometryNone: LABiometryType { .none }

  /// The name the daemon sends ("faceID").
  public var name: String {
    switch self {
    case .none: "none"
    case .touchID: "touchID"
    case .faceID: "faceID"
    case .opticID: "opticID"
    }
  }

  /// The type from the daemon's name; nil for a name this version does not know.
  public init?(name: String) {
    guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = type
  }

  /// The name.
  public var description: String { name }
}
