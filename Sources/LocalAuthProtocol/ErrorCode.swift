/// An error code on the wire: JSON-RPC's own, the broker's (-32001…-32004), or an LAError raw value.
/// Open, so codes added later never break a client that does not know them.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Error, CustomStringConvertible {
  /// The integer on the wire.
  public let rawValue: Int

  /// A code from its raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Credentials not valid after the allowed attempts (LAError.authenticationFailed).
  public static let authenticationFailed = ErrorCode(rawValue: -1)
  /// The user cancelled the prompt.
  public static let userCancel = ErrorCode(rawValue: -2)
  /// The user chose the fallback button.
  public static let userFallback = ErrorCode(rawValue: -3)
  /// The system cancelled: client inactive, daemon stopping, prompt timeout.
  public static let systemCancel = ErrorCode(rawValue: -4)
  /// No passcode is set.
  public static let passcodeNotSet = ErrorCode(rawValue: -5)
  /// No usable biometric sensor.
  public static let biometryNotAvailable = ErrorCode(rawValue: -6)
  /// No identity enrolled.
  public static let biometryNotEnrolled = ErrorCode(rawValue: -7)
  /// Too many failed biometric attempts.
  public static let biometryLockout = ErrorCode(rawValue: -8)
  /// The app cancelled: cancel, or invalidate of its context.
  public static let appCancel = ErrorCode(rawValue: -9)
  /// The context was invalidated earlier.
  public static let invalidContext = ErrorCode(rawValue: -10)
  /// No paired companion in reach.
  public static let companionNotAvailable = ErrorCode(rawValue: -11)
  /// Removable sensor not paired.
  public static let biometryNotPaired = ErrorCode(rawValue: -12)
  /// Removable sensor disconnected.
  public static let biometryDisconnected = ErrorCode(rawValue: -13)
  /// Invalid dimensions.
  public static let invalidDimensions = ErrorCode(rawValue: -14)
  /// UI would be needed but interaction is not allowed.
  public static let notInteractive = ErrorCode(rawValue: -1004)

  /// The context already has an evaluation in flight.
  public static let alreadyInProgress = ErrorCode(rawValue: -32001)
  /// The evaluation queue is full.
  public static let queueFull = ErrorCode(rawValue: -32002)
  /// The caller may not do this.
  public static let permissionDenied = ErrorCode(rawValue: -32003)
  /// No such object (for this caller).
  public static let notFound = ErrorCode(rawValue: -32004)
  /// A configured limit was reached (`data.limit` names the configuration key, `data.max` its value).
  public static let limitExceeded = ErrorCode(rawValue: -32006)

  /// Invalid JSON was received.
  public static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON is not a valid request object.
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  /// The method does not exist.
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  /// Invalid method parameters.
  public static let invalidParams = ErrorCode(rawValue: -32602)
  /// Internal error.
  public static let internalError = ErrorCode(rawValue: -32603)

  private static let names: [Int: String] = [
    -1: "authenticationFailed", -2: "userCancel", -3: "userFallback", -4: "systemCancel",
    -5: "passcodeNotSet", -6: "biometryNotAvailable", -7: "biometryNotEnrolled",
    -8: "biometryLockout",
    -9: "appCancel", -10: "invalidContext", -11: "companionNotAvailable", -12: "biometryNotPaired",
    -13: "biometryDisconnected", -14: "invalidDimensions", -1004: "notInteractive",
    -32001: "alreadyInProgress", -32002: "queueFull", -32003: "permissionDenied",
    -32004: "notFound",
    -32005: "alreadyExists", -32006: "limitExceeded",
    -32700: "parseError", -32600: "invalidRequest", -32601: "methodNotFound",
    -32602: "invalidParams",
    -32603: "internalError",
  ]

  /// Every code with a name, in the order of docs/protocol.md, "Errors": LAError codes, then the
  /// broker's and JSON-RPC's.
  public static let allNamed: [ErrorCode] = names.keys.sorted { abs($0) < abs($1) }.map(
    ErrorCode.init(rawValue:))

  /// The stable name of the code ("appCancel"), or "error<code>" for one this version does not know.
  public var name: String { Self.names[rawValue] ?? "error\(rawValue)" }

  /// A code from its name, e.g. "userCancel".
  public init?(name: String) {
    guard let entry = Self.names.first(where: { $0.value == name }) else { return nil }
    rawValue = entry.key
  }

  /// Whether this is a LocalAuthentication outcome (an LAError raw value) rather than a protocol error.
  public var isLocalAuthentication: Bool {
    rawValue < 0 && rawValue >= -1004 && Self.names[rawValue] != nil
  }

  /// A default human-readable message.
  public var defaultMessage: String {
    switch self {
    case .authenticationFailed: "Authentication failed."
    case .userCancel: "Canceled by user."
    case .userFallback: "Fallback authentication mechanism selected."
    case .systemCancel: "Canceled by the system."
    case .passcodeNotSet: "Passcode not set."
    case .biometryNotAvailable: "Biometry is not available on this device."
    case .biometryNotEnrolled: "No identities are enrolled."
    case .biometryLockout: "Biometry is locked out."
    case .appCancel: "Canceled by the application."
    case .invalidContext: "The context has been invalidated."
    case .companionNotAvailable: "No paired companion device is in reach."
    case .biometryNotPaired: "The removable biometric accessory is not paired."
    case .biometryDisconnected: "The removable biometric accessory is disconnected."
    case .invalidDimensions: "Invalid dimensions."
    case .notInteractive: "User interaction is required but not allowed."
    case .alreadyInProgress: "The context already has an evaluation in progress."
    case .queueFull: "The evaluation queue is full."
    case .permissionDenied: "Permission denied."
    case .notFound: "Not found."
    case .limitExceeded: "A limit was reached."
    case .parseError: "Parse error."
    case .invalidRequest: "Invalid request."
    case .methodNotFound: "Method not found."
    case .invalidParams: "Invalid params."
    default: "Internal error."
    }
  }

  /// The name.
  public var description: String { "\(name) (\(rawValue))" }
}

/// A JSON-RPC error object: code, message and the `data` member with `name` (and `requestID`, `reason`…).
public struct RPCError: Error, Sendable, Equatable {
  /// The code.
  public var code: ErrorCode
  /// A human-readable message.
  public var message: String
  /// The `data` member; always carries `name`.
  public var data: JSONObject

  /// An error with the code's name in `data`, plus any extra members.
  public init(_ code: ErrorCode, _ message: String? = nil, data extra: JSONObject = [:]) {
    self.code = code
    self.message = message ?? code.defaultMessage
    var data: JSONObject = ["name": .string(code.name)]
    for member in extra.members { data[member.key] = member.value }
    self.data = data
  }

  /// Invalid params naming the bad field.
  public static func invalidParams(_ field: String, _ problem: String) -> RPCError {
    RPCError(
      .invalidParams, "Invalid params: '\(field)' \(problem).", data: ["field": .string(field)])
  }

  /// A refusal at a configured limit: the message says what and the key, `data` carries both.
  public static func limit(_ key: String, _ max: Int, _ what: String) -> RPCError {
    RPCError(
      .limitExceeded, "Limit reached: \(what) (\(key)=\(max)).",
      data: ["limit": .string(key), "max": .int(max)])
  }

  /// An invalid request with a machine-readable reason.
  public static func invalidRequest(_ message: String, reason: String? = nil) -> RPCError {
    RPCError(.invalidRequest, message, data: ["reason": reason.map(JSONValue.string)])
  }

  /// The request id this error belongs to, when the broker set one (`data.requestID`).
  public var requestID: String? { data["requestID"]?.stringValue }

  /// The error object as JSON.
  public var json: JSONValue {
    ["code": .int(code.rawValue), "message": .string(message), "data": .object(data)]
  }

  /// An error from its JSON object (client side); nil when the shape is wrong.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let code = object["code"]?.intValue else { return nil }
    self.code = ErrorCode(rawValue: code)
    message = object["message"]?.stringValue ?? ""
    data = object["data"]?.objectValue ?? ["name": .string(self.code.name)]
  }
}
