import LocalAuthBroker
import Systemd

extension MessageID {
  /// An SSH key signature was given or refused.
  public static let sshSignature = "0c7d4e7e45ac4bdca8cc25d31b4f92e6"
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
