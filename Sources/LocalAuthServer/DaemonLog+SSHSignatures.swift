import LocalAuthBroker
import Systemd

extension MessageID {
  /// An SSH key signature was given or refused.
  public static let sshSignature = "5a2e0c6b3f8d4c1e9b7a6d5f4e3c2b1a"
}

extension DaemonLog {
  /// Logs an SSH key signature with KEY_FINGERPRINT, SSH_HOST_KEY (when bound), OWNER_UID,
  /// REQUEST_ID and OUTCOME.
  public func sshSignature(_ record: SSHSignatureRecord) {
    var fields = [
      JournalField("REQUEST_ID", record.requestID), JournalField("SSH_KEY_NAME", record.keyName),
      JournalField("KEY_FINGERPRINT", record.keyFingerprint),
      JournalField("OWNER_UID", String(record.ownerUID)),
      JournalField("CLIENT_PID", String(record.clientPID)),
      JournalField("OUTCOME", record.outcome), JournalField("SSH_SIGN_REASON", record.reason),
    ]
    if let host = record.hostKeyFingerprint { fields.append(JournalField("SSH_HOST_KEY", host)) }
    event(
      record.summary, messageID: MessageID.sshSignature,
      priority: record.outcome == "signed" ? 6 : 5, fields: fields)
  }
}
