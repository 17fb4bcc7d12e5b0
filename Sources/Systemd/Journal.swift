import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// Structured logging to systemd-journald through `sd_journal_sendv(3)`.
///
/// Stateless; callable from any thread or task.
public enum Journal {
  /// The socket libsystemd always writes journal entries to.
  static let socketPath = "/run/systemd/journal/socket"

  /// The `SYSLOG_IDENTIFIER=` every entry carries.
  static let syslogIdentifier = "localauthd"

  /// Whether a journald socket exists (`/run/systemd/journal/socket`); otherwise the daemon logs to stderr.
  public static var isAvailable: Bool {
    access(socketPath, F_OK) == 0
  }

  /// Sends one entry with `sd_journal_sendv`.
  ///
  /// The entry carries `MESSAGE=`, `PRIORITY=` (syslog level 0–7), `MESSAGE_ID=`
  /// (when given; 32 lower-case hex digits), `SYSLOG_IDENTIFIER=localauthd`,
  /// `CODE_FILE=`/`CODE_LINE=`/`CODE_FUNC=` from the call site, then `fields`.
  /// Returns false when libsystemd reports an error. A true result does not prove
  /// that a journald received the entry: libsystemd returns 0 when none listens.
  @discardableResult
  public static func send(
    message: String,
    priority: Int32,
    messageID: String?,
    fields: [JournalField],
    file: String = #fileID,
    line: Int = #line,
    function: String = #function
  ) -> Bool {
    let assignments = entry(
      message: message, priority: priority, messageID: messageID, fields: fields,
      file: file, line: line, function: function)
    return sendv(assignments)
  }

  /// The `NAME=value` assignments of one entry, in the order they are sent.
  static func entry(
    message: String, priority: Int32, messageID: String?, fields: [JournalField],
    file: String, line: Int, function: String
  ) -> [String] {
    var assignments = [
      "MESSAGE=\(message)",
      "PRIORITY=\(priority)",
    ]
    if let messageID {
      assignments.append("MESSAGE_ID=\(messageID)")
    }
    assignments += [
      "SYSLOG_IDENTIFIER=\(syslogIdentifier)",
      "CODE_FILE=\(file)",
      "CODE_LINE=\(line)",
      "CODE_FUNC=\(function)",
    ]
    assignments += fields.map { "\($0.name)=\($0.value)" }
    return assignments
  }

  /// Copies each assignment into its own buffer, points one `iovec` at each and calls `sd_journal_sendv`.
  private static func sendv(_ assignments: [String]) -> Bool {
    var buffers: [UnsafeMutableRawBufferPointer] = []
    var vectors: [iovec] = []
    defer {
      for buffer in buffers { buffer.deallocate() }
    }
    for assignment in assignments {
      let bytes = Array(assignment.utf8)
      let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(bytes.count, 1), alignment: 1)
      buffer.copyBytes(from: bytes)
      buffers.append(buffer)
      vectors.append(iovec(iov_base: buffer.baseAddress, iov_len: bytes.count))
    }
    let result = vectors.withUnsafeBufferPointer { pointer in
      sd_journal_sendv(pointer.baseAddress, Int32(pointer.count))
    }
    return result >= 0
  }
}
