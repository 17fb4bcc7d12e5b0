/// One desktop notification to show: plain text, as the policy words it (`NoticePolicy`).
/// `SessionNotifier` sanitizes both parts and escapes the body's markup at the edge, so a notice
/// may carry a client's words as they came.
public struct DesktopNotice: Sendable, Equatable {
  /// How urgent the server should treat it (the specification's `urgency` hint).
  public enum Urgency: UInt8, Sendable {
    /// Low: may be shown quietly.
    case low = 0
    /// Normal.
    case normal = 1
    /// Critical: shown even when the desktop holds back notifications, and kept until closed.
    case critical = 2
  }

  /// The one-line summary (plain text: servers do not read markup in it).
  public var summary: String
  /// The body (plain text here; escaped for the server's markup when sent).
  public var body: String
  /// Its urgency.
  public var urgency: Urgency

  /// A notice. Critical by default: a sensor waits for the person, and the notice is closed as
  /// soon as the evaluation ends, so it never lingers.
  public init(summary: String, body: String, urgency: Urgency = .critical) {
    self.summary = summary
    self.body = body
    self.urgency = urgency
  }
}
