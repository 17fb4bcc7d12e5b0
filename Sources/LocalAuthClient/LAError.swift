import Foundation
import LocalAuthProtocol

/// The error domain of LocalAuthentication errors, as Apple names it (`LAErrorDomain`).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// A LocalAuthentication outcome other than success, as Apple's `LAError` reports it.
/// `code` is one of the public raw values of docs/protocol.md, "Errors"; `requestID` names the
/// evaluation in the daemon's journal when one existed. Value type; usable from any thread.
public struct LAError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The LocalAuthentication error codes with Apple's raw values.
  public enum Code: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Credentials not valid after the allowed attempts.
    case authenticationFailed = -1
    /// The user cancelled the prompt.
    case userCancel = -2
    /// The user chose the fallback button.
    case userFallback = -3
    /// The system cancelled: client inactive, daemon stopping or gone, prompt timeout.
    case systemCancel = -4
    /// No passcode is set.
    case passcodeNotSet = -5
    /// No usable biometric sensor.
    case biometryNotAvailable = -6
    /// No identity enrolled.
    case biometryNotEnrolled = -7
    /// Too many failed biometric attempts.
    case biometryLockout = -8
    /// The app cancelled: a cancelled Task, `invalidate()`, or a deinitialised context.
    case appCancel = -9
    /// The context was invalidated earlier.
    case invalidContext = -10
    /// No paired companion in reach.
    case companionNotAvailable = -11
    /// The removable biometric accessory is not paired.
    case biometryNotPaired = -12
    /// The removable biometric accessory is disconnected.
    case biometryDisconnected = -13
    /// Invalid dimensions.
    case invalidDimensions = -14
    /// User interaction is required but not allowed.
    case notInteractive = -1004

    /// The stable name ("appCancel"), as the daemon puts it in `error.data.name`.
    public var name: String { ErrorCode(rawValue: rawValue).name }

    /// A code from its stable name.
    public init?(name: String) {
      guard let code = ErrorCode(name: name), let known = Code(rawValue: code.rawValue) else {
        return nil
      }
      self = known
    }

    /// The name.
    public var description: String { name }
  }

  /// Apple's error domain for these errors.
  public static var errorDomain: String { LAErrorDomain }

  /// What went wrong.
  public var code: Code
  /// The daemon's human-readable message.
  public var message: String
  /// The evaluation this error ended, when the daemon created one.
  public var requestID: String?
  /// A machine-readable detail (`data.reason`: "timeout", "connectionLost", …).
  public var reason: String?

  /// An error with the code's default message unless one is given.
  public init(_ code: Code, message: String? = nil, requestID: String? = nil, reason: String? = nil)
  {
    self.code = code
    self.message = message ?? ErrorCode(rawValue: code.rawValue).defaultMessage
    self.requestID = requestID
    self.reason = reason
  }

  /// Apple's initializer: an error with `code`; `NSLocalizedDescriptionKey` in `userInfo`, if a
  /// string, becomes the message. Other entries are not kept (they are not `Sendable`).
  public init(_ code: Code, userInfo: [String: Any]) {
    self.init(code, message: userInfo[NSLocalizedDescriptionKey] as? String)
  }

  /// The LocalAuthentication error a JSON-RPC error stands for; nil when its code is not an LAError code.
  public init?(_ error: RPCError) {
    guard let code = Code(rawValue: error.code.rawValue) else { return nil }
    self.init(
      code, message: error.message, requestID: error.requestID,
      reason: error.data["reason"]?.stringValue)
  }

  /// "appCancel (-9): Canceled by the application. [requestID …]".
  public var description: String {
    var text = "\(code.name) (\(code.rawValue)): \(message)"
    if let requestID { text += " [requestID \(requestID)]" }
    return text
  }

  /// Two errors are equal when code, request and reason agree (messages may be reworded).
  public static func == (lhs: LAError, rhs: LAError) -> Bool {
    lhs.code == rhs.code && lhs.requestID == rhs.requestID && lhs.reason == rhs.reason
  }
}

extension LAError.Code {
  /// Deprecated name of `biometryLockout`.
  @available(*, deprecated, renamed: "biometryLockout")
  public static var touchIDLockout: Self { .biometryLockout }
  /// Deprecated name of `biometryNotAvailable`.
  @available(*, deprecated, renamed: "biometryNotAvailable")
  public static var touchIDNotAvailable: Self { .biometryNotAvailable }
  /// Deprecated name of `biometryNotEnrolled`.
  @available(*, deprecated, renamed: "biometryNotEnrolled")
  public static var touchIDNotEnrolled: Self { .biometryNotEnrolled }
  /// Deprecated name of `companionNotAvailable`.
  @available(*, deprecated, renamed: "companionNotAvailable")
  public static var watchNotAvailable: Self { .companionNotAvailable }

  /// Matches `catch LAError.appCancel` style patterns against any thrown error.
  public static func ~= (code: LAError.Code, error: any Error) -> Bool {
    (error as? LAError)?.code == code
  }
}

extension LAError {
  /// Credentials not valid after the allowed attempts.
  public static var authenticationFailed: Code { .authenticationFailed }
  /// The user cancelled the prompt.
  public static var userCancel: Code { .userCancel }
  /// The user chose the fallback button.
  public static var userFallback: Code { .userFallback }
  /// The system cancelled.
  public static var systemCancel: Code { .systemCancel }
  /// The removable biometric accessory is not paired.
  public static var biometryNotPaired: Code { .biometryNotPaired }
  /// The removable biometric accessory is disconnected.
  public static var biometryDisconnected: Code { .biometryDisconnected }
  /// Invalid dimensions.
  public static var invalidDimensions: Code { .invalidDimensions }
  /// Deprecated name of `biometryLockout`.
  @available(*, deprecated, renamed: "biometryLockout")
  public static var touchIDLockout: Code { .biometryLockout }
  /// Deprecated name of `biometryNotAvailable`.
  @available(*, deprecated, renamed: "biometryNotAvailable")
  public static var touchIDNotAvailable: Code { .biometryNotAvailable }
  /// Deprecated name of `biometryNotEnrolled`.
  @available(*, deprecated, renamed: "biometryNotEnrolled")
  public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
  /// Deprecated name of `companionNotAvailable`.
  @available(*, deprecated, renamed: "companionNotAvailable")
  public static var watchNotAvailable: Code { .companionNotAvailable }
  /// No passcode is set.
  public static var passcodeNotSet: Code { .passcodeNotSet }
  /// No usable biometric sensor.
  public static var biometryNotAvailable: Code { .biometryNotAvailable }
  /// No identity enrolled.
  public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
  /// Too many failed biometric attempts.
  public static var biometryLockout: Code { .biometryLockout }
  /// The app cancelled.
  public static var appCancel: Code { .appCancel }
  /// The context was invalidated earlier.
  public static var invalidContext: Code { .invalidContext }
  /// No paired companion in reach.
  public static var companionNotAvailable: Code { .companionNotAvailable }
  /// UI would be needed but interaction is not allowed.
  public static var notInteractive: Code { .notInteractive }
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

/// Turns a JSON-RPC error from the daemon into what the client throws: an `LAError` for
/// LocalAuthentication codes, the `RPCError` itself for broker and protocol errors
/// (alreadyInProgress, permissionDenied, methodNotFound, …).
func clientError(_ error: RPCError) -> any Error {
  LAError(error) ?? error
}

/// Apple's `NSErrorPointer` (Foundation on Linux has none): `var error: NSError?` passed as `&error`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
