/// Why a real driver could not finish a capture: thrown by `capture` instead of an event. The broker ends
/// the evaluation in flight with `biometryNotAvailable` and this reason (docs/drivers.md).
public struct SensorFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The stable reason on the wire (`data.reason`).
  public var reason: Reason
  /// What happened, for the journal (already sanitized).
  public var detail: String

  /// A failure.
  public init(_ reason: Reason, _ detail: String) {
    self.reason = reason
    self.detail = detail
  }

  /// The closed set of reasons.
  public enum Reason: String, Sendable, Equatable {
    /// The driver process exited or was killed during the capture.
    case driverCrashed
    /// The driver stopped answering (no PONG in time, or its input pipe stayed full).
    case driverHung
    /// The driver wrote something that is not the protocol (garbage, overlong line, bad UTF-8).
    case driverProtocolError
    /// The driver is not running or not ready (starting, or waiting out its restart back-off).
    case driverNotReady
    /// The driver's service is missing from the bus or does not answer.
    case serviceUnavailable
    /// Another program holds the device.
    case deviceBusy
    /// The driver's service says the owner has no enrolled identity (learnt at the capture).
    case notEnrolled
  }

  /// "driverCrashed: detail".
  public var description: String { "\(reason.rawValue): \(detail)" }
}
