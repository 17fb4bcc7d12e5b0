import LocalAuthBroker
import LocalAuthProtocol
import Systemd

extension MessageID {
  /// A client evaluated again shortly after its previous prompt was cancelled.
  public static let repromptAfterCancel = "0b650c4f271e40b2bb10f32d8de29e9e"
  /// A client had two prompts queued or running at once from different contexts.
  public static let overlappingPrompts = "d7c67e3e1d014eb4bbdb059fb052304f"
  /// A client invalidated a busy or cancelled context and evaluated in a new one.
  public static let contextChurn = "3ae87474741f48be996708108b5c530c"

  /// The MESSAGE_ID of a detector's findings.
  public static func finding(_ kind: Finding.Kind) -> String {
    switch kind {
    case .repromptAfterCancel: repromptAfterCancel
    case .overlappingPrompts: overlappingPrompts
    case .contextChurn: contextChurn
    }
  }
}

extension DaemonLog {
  /// Logs a finding as a warning with its own MESSAGE_ID, both requestIDs, the client and the gap.
  public func finding(_ finding: Finding) {
    // emit() escapes the whole message; the fields go to the journal as they are.
    let name = finding.clientName
    event(
      "\(finding.kind.rawValue): client \(name) (pid \(finding.clientPID), uid \(finding.clientUID)) \(finding.summary)",
      messageID: MessageID.finding(finding.kind), priority: 4,
      fields: [
        JournalField("FINDING", finding.kind.rawValue),
        JournalField("REQUEST_ID", finding.laterRequestID),
        JournalField("EARLIER_REQUEST_ID", finding.earlierRequestID),
        JournalField("LATER_REQUEST_ID", finding.laterRequestID),
        JournalField("GAP_MS", String(finding.gapMilliseconds)),
        JournalField("EARLIER_OUTCOME", finding.earlierOutcome),
        JournalField("CLIENT_PID", String(finding.clientPID)),
        JournalField("CLIENT_UID", String(finding.clientUID)),
        JournalField("CLIENT_NAME", finding.clientName), JournalField("APP_ID", finding.appID),
      ])
  }
}
