/// What the hardware saw during one capture: a closed vocabulary with stable wire strings
/// (in the manner of fprintd's verify-match / verify-retry-scan).
public enum CaptureEvent: Sendable, Equatable {
  /// An enrolled identity matched (for a passcode sensor: the right passcode, see `passcode`).
  case match(identity: String)
  /// Something was presented but did not match.
  case noMatch
  /// A retryable read, with its reason from the closed vocabulary.
  case retry(reason: RetryReason)
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
    case .retry(let reason): reason.rawValue
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
  /// Whose presence is asked for: only this owner's enrolled identities may match.
  public var owner: SensorOwner
  /// Called once the sensor listens for this capture, by a driver whose `reportsArming` is true
  /// (fprintd's: when VerifyStart is answered), from any thread; the prompt says "touch" only then.
  public var armed: @Sendable () -> Void

  /// A request (by default for uid 0, root).
  public init(
    requestID: String, attempt: Int, owner: SensorOwner = SensorOwner(uid: 0, name: "root"),
    armed: @escaping @Sendable () -> Void = {}
  ) {
    self.requestID = requestID
    self.attempt = attempt
    self.owner = owner
    self.armed = armed
  }
}

/// The Linux account whose presence an evaluation asks for, as a driver needs it (fprintd takes the name).
public struct SensorOwner: Sendable, Hashable {
  /// The account's uid.
  public var uid: UInt32
  /// The account's name (`uid-N` when the account database has none).
  public var name: String

  /// An owner.
  public init(uid: UInt32, name: String) {
    self.uid = uid
    self.name = name
  }
}
