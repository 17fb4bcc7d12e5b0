/// What the hardware saw during one capture: a closed vocabulary with stable wire strings
/// (in the manner of fprintd's verify-match / verify-retry-scan).
public enum CaptureEvent: Sendable, Equatable {
  /// An enrolled identity matched (for a passcode sensor: the right passcode, see `passcode`).
  case match(identity: String)
  /// Something was presented but did not match.
  case noMatch
  /// A retryable read, with its reason (faceNotCentered, tooFast, …).
  case retry(reason: String)
  /// The user pressed Cancel.
  case userCancel
  /// The user pressed the fallback button.
  case userFallback
  /// The user typed a passcode.
  case passcode(String)
  /// A removable sensor went away during the capture.
  case disconnected

  /// The stable wire string for feedback notifications.
  public var wireName: String {
    switch self {
    case .match: "match"
    case .noMatch: "noMatch"
    case .retry(let reason): reason
    case .userCancel: "userCancel"
    case .userFallback: "userFallback"
    case .passcode: "passcodeEntered"
    case .disconnected: "disconnected"
    }
  }
}

/// What the broker asks of a capture.
public struct CaptureRequest: Sendable {
  /// The evaluation's request id, for the driver's own logs.
  public var requestID: String
  /// The 1-based attempt number within the evaluation.
  public var attempt: Int

  /// A request.
  public init(requestID: String, attempt: Int) {
    self.requestID = requestID
    self.attempt = attempt
  }
}
