import LocalAuthProtocol

/// Apple's `NSErrorPointer` (Foundation on Linux has none): `var error: NSError?` passed as `&error`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

extension LAError {
  /// Apple's initializer: an error with `code`; `NSLocalizedDescriptionKey` in `userInfo`, if a
  /// string, becomes the message. Other entries are not kept (they are not `Sendable`).
  public init(_ code: Code, userInfo: [String: Any]) {
    self.init(code, message: userInfo[NSLocalizedDescriptionKey] as? String)
  }

  /// The error an `NSError` in `LAErrorDomain` stands for (Apple's `init(_nsError:)`); the
  /// message, request ID and reason come from its `userInfo`. Traps, as Apple's does, when the
  /// error is not in `LAErrorDomain` or its code is not an `LAError.Code`.
  public init(_nsError error: NSError) {
    guard let bridged = LAError(bridging: error) else {
      preconditionFailure("LAError(_nsError:) with \(error.domain) code \(error.code)")
    }
    self = bridged
  }

  /// The error an `NSError` stands for, or nil when it is not in `LAErrorDomain` with a known code.
  init?(bridging error: NSError) {
    guard error.domain == LAErrorDomain, let code = Code(rawValue: error.code) else { return nil }
    self.init(
      code, message: error.userInfo[NSLocalizedDescriptionKey] as? String,
      requestID: error.userInfo["requestID"] as? String,
      reason: error.userInfo["reason"] as? String)
  }

  /// Apple's `userInfo`: the message under `NSLocalizedDescriptionKey`, then the request ID and
  /// reason under their names.
  public var userInfo: [String: Any] { errorUserInfo }
}

extension LAError: CustomNSError, LocalizedError {
  /// The code's raw value, as `NSError.code` carries it (CustomNSError).
  public var errorCode: Int { code.rawValue }

  /// The message under `NSLocalizedDescriptionKey`, the request ID and reason under their names.
  public var errorUserInfo: [String: Any] {
    var info: [String: Any] = [NSLocalizedDescriptionKey: message]
    if let requestID { info["requestID"] = requestID }
    if let reason { info["reason"] = reason }
    return info
  }

  /// What happened, so `localizedDescription` reads as the daemon's message.
  public var errorDescription: String? { message }

  /// The error as an `NSError` in `LAErrorDomain` with Apple's code.
  public var nsError: NSError {
    NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
  }
}

// Bridging, as Apple's LAError has: `nsError as? LAError` and `catch let error as NSError` both
// work, through the runtime's `_ObjectiveCBridgeable` casts (present on Linux too).
extension LAError: _ObjectiveCBridgeable {
  /// The `NSError` form.
  public func _bridgeToObjectiveC() -> NSError { nsError }

  /// The `LAError` an `NSError` stands for; traps when it is not one (a forced cast).
  public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) {
    result = LAError(_nsError: source)
  }

  /// The `LAError` an `NSError` stands for, or false when it is not one (`as?`).
  public static func _conditionallyBridgeFromObjectiveC(
    _ source: NSError, result: inout LAError?
  ) -> Bool {
    result = LAError(bridging: source)
    return result != nil
  }

  /// The `LAError` an `NSError` stands for; an unknown or nil error becomes `.systemCancel`.
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> LAError {
    source.flatMap { LAError(bridging: $0) } ?? LAError(.systemCancel)
  }
}

// The daemon's own errors (notFound, alreadyExists, permissionDenied, …) and a daemon out of
// reach, as NSErrors that say what happened: `localizedDescription` is the daemon's message and
// `code` its JSON-RPC code, never Foundation's generic "The operation could not be completed"
// with code 1.

extension RPCError: CustomNSError, LocalizedError {
  /// "localauthd.RPCError".
  public static var errorDomain: String { "localauthd.RPCError" }
  /// The JSON-RPC code (-32004 notFound, -32005 alreadyExists, …).
  public var errorCode: Int { code.rawValue }
  /// The message, the code's name and the request ID when there is one.
  public var errorUserInfo: [String: Any] {
    var info: [String: Any] = [NSLocalizedDescriptionKey: message, "name": code.name]
    if let requestID { info["requestID"] = requestID }
    return info
  }
  /// The daemon's message.
  public var errorDescription: String? { message }
}

extension ConnectionError: CustomNSError, LocalizedError {
  /// "localauthd.ConnectionError".
  public static var errorDomain: String { "localauthd.ConnectionError" }
  /// The code of every connection error: positive, so that code that maps codes without looking
  /// at the domain cannot read it as an `LAError` (whose codes are negative; -1 is
  /// authenticationFailed).
  public static let cannotConnectCode = 1
  /// ``cannotConnectCode`` (1), as `canEvaluatePolicy(_:error:)` reports it.
  public var errorCode: Int { Self.cannotConnectCode }
  /// The description under `NSLocalizedDescriptionKey`.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
  /// "cannot connect to PATH: REASON".
  public var errorDescription: String? { description }
}
