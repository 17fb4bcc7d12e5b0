import Glibc
import LocalAuthBroker
import LocalAuthProtocol
import Synchronization
import Systemd

/// The MESSAGE_IDs of localauthd's journal entries (explained by systemd/localauthd.catalog).
public enum MessageID {
  /// An evaluation started.
  public static let evaluationStarted = "07b31cac78114fedb2092ee82603c926"
  /// An evaluation finished.
  public static let evaluationFinished = "58f85e6fc39a4c9093b7a9704736f258"
  /// The daemon started serving.
  public static let daemonStarted = "007c3e8bb647412cb52813f1c7944d99"
  /// The daemon is stopping.
  public static let daemonStopping = "eae9485abfa647bba4c1d4180a854a19"
  /// The configuration was reloaded.
  public static let configurationReloaded = "dbedbc1757cb44488a5975299ea0b3f9"
  /// A new configuration was refused; the old one stays.
  public static let configurationRejected = "f24b3e84428a4dff9bdcc690b23358d5"
  /// The rights store could not be opened; rights are unavailable while evaluations go on.
  public static let rightsUnavailable = "d5cd9dcba6f24c54a03022b81511b487"
  /// A client was dropped (it did not read its responses).
  public static let clientDropped = "49001afd51cd4d85ba2de6ab6d588703"
}

/// Logs evaluations as structured journal entries when a journal is there, else as lines on stderr.
/// Thread-safe (each entry is one sd_journal_sendv or one write(2)).
public struct DaemonLog: EvaluationLog {
  /// Whether entries go to the journal.
  public let toJournal: Bool
  private let stderrLines = StderrBuffer()
  private let stderrClock = StderrClock()

  /// A log to the journal if available (and not `forceStderr`), else stderr.
  public init(forceStderr: Bool = false) {
    toJournal = !forceStderr && Journal.isAvailable
  }

  /// Logs an evaluation's start.
  public func evaluationStarted(
    _ record: EvaluationRecord, file: String, line: Int, function: String
  ) {
    let text =
      "evaluation \(record.requestID) started: \(record.policy.name) for \(record.clientName) (pid \(record.clientPID), uid \(record.clientUID))\(onBehalf(record)) on \(record.sensor ?? "-")"
    emit(
      text, priority: 6, messageID: MessageID.evaluationStarted, fields: fields(record),
      at: (file, line, function))
  }

  /// Logs an evaluation's end.
  public func evaluationFinished(
    _ record: EvaluationRecord, result: EvaluationResult, file: String, line: Int, function: String
  ) {
    var text = "evaluation \(record.requestID) finished: \(result.name)"
    if let reason = result.reason { text += " (\(reason))" }
    text +=
      " for \(record.clientName) (pid \(record.clientPID), uid \(record.clientUID))\(onBehalf(record)), \(record.policy.name) on \(record.sensor ?? "-")"
    emit(
      text, priority: 6, messageID: MessageID.evaluationFinished,
      fields: fields(record, result: result), at: (file, line, function))
  }

  private func fields(_ record: EvaluationRecord, result: EvaluationResult) -> [JournalField] {
    var entryFields = fields(record)
    entryFields.append(JournalField("RESULT", result.name))
    entryFields.append(JournalField("LA_ERROR", String(result.code?.rawValue ?? 0)))
    if let reason = result.reason { entryFields.append(JournalField("REASON", reason)) }
    return entryFields
  }

  /// Logs a client that went away with an evaluation pending, or that the daemon dropped.
  public func clientDropped(
    pid: Int32, uid: UInt32, name: String, requestID: String?, reason: String, file: String,
    line: Int,
    function: String
  ) {
    var entryFields = [
      JournalField("CLIENT_PID", String(pid)), JournalField("CLIENT_UID", String(uid)),
      JournalField("CLIENT_NAME", name), JournalField("REASON", reason),
    ]
    var text = "client \(name) (pid \(pid), uid \(uid)) dropped: \(reason)"
    if let requestID {
      entryFields.append(JournalField("REQUEST_ID", requestID))
      text += "; evaluation \(requestID) ended unanswered"
    }
    emit(
      text, priority: 4, messageID: MessageID.clientDropped, fields: entryFields,
      at: (file, line, function))
  }

  /// Logs a notice.
  public func notice(_ message: String, file: String, line: Int, function: String) {
    emit(message, priority: 5, messageID: nil, fields: [], at: (file, line, function))
  }

  /// Logs a daemon event with a MESSAGE_ID.
  public func event(
    _ message: String, messageID: String, priority: Int32 = 5, fields: [JournalField] = [],
    file: String = #fileID, line: Int = #line, function: String = #function
  ) {
    emit(
      message, priority: priority, messageID: messageID, fields: fields, at: (file, line, function))
  }

  /// " on behalf of uid N" when the presence asked for is not the client's own.
  private func onBehalf(_ record: EvaluationRecord) -> String {
    record.ownerUID == record.clientUID ? "" : " on behalf of uid \(record.ownerUID)"
  }

  private func fields(_ record: EvaluationRecord) -> [JournalField] {
    [
      JournalField("REQUEST_ID", record.requestID), JournalField("CONTEXT_ID", record.contextID),
      JournalField("CLIENT_PID", String(record.clientPID)),
      JournalField("CLIENT_UID", String(record.clientUID)),
      JournalField("CLIENT_NAME", record.clientName),
      JournalField("OWNER_UID", String(record.ownerUID)),
      JournalField("POLICY", record.policy.name),
      JournalField("SENSOR", record.sensor ?? ""),
    ]
  }

  /// Writes one entry. The journal fields are built only for the journal: on stderr only the
  /// message is written (building them for every evaluation line cost a flooding client's
  /// refused evaluations ~20,000 instructions each; docs/performance.md, "The hostile rows").
  private func emit(
    _ message: String, priority: Int32, messageID: String?,
    fields: @autoclosure () -> [JournalField],
    at location: (file: String, line: Int, function: String)
  ) {
    // Client-chosen text (names, reasons) must not forge lines or reach a terminal raw.
    let message = PrintableText.escaped(message)
    if toJournal {
      Journal.send(
        message: message, priority: priority, messageID: messageID, fields: fields(),
        file: location.file,
        line: location.line, function: location.function)
      return
    }
    stderrLines.append(stderrClock.now() + " localauthd: " + message + "\n")
  }

  /// Writes buffered stderr lines (the daemon calls it at the end of each turn of its loop).
  public func flush() { stderrLines.flush() }
}

/// Lines for stderr, gathered so that a busy turn of the loop costs one write(2), not one per line.
/// Thread-safe.
final class StderrBuffer: Sendable {
  private let pending = Mutex<[UInt8]>([])

  func append(_ line: String) {
    let full = pending.withLock { bytes in
      bytes.append(contentsOf: line.utf8)
      return bytes.count >= 32 * 1024
    }
    if full { flush() }
  }

  /// Writes what is gathered. Called twice per loop turn: with nothing gathered it takes the lock
  /// and returns (no copy, no allocation: the log costs nothing while it is quiet).
  func flush() {
    let bytes = pending.withLock { bytes -> [UInt8] in
      if bytes.isEmpty { return [] }
      var taken: [UInt8] = []
      swap(&taken, &bytes)
      return taken
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(2, $0.baseAddress! + offset, bytes.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// The time at the start of each stderr line, "2026-12-01 15:02:11.123": the local date and time
/// are formatted once a second (localtime_r and strftime cost ~5,000 instructions a line, a
/// quarter of a line's cost while a client floods the log), the milliseconds each time.
/// Thread-safe.
final class StderrClock: Sendable {
  private let second = Mutex<(epochSecond: Int, text: String)>((-1, ""))

  /// Now, as `WallClock.format` writes it.
  func now() -> String {
    let milliseconds = WallClock.nowMilliseconds()
    let epochSecond = milliseconds / 1000
    let text = second.withLock { cached -> String in
      if cached.epochSecond != epochSecond {
        let full = WallClock.format(milliseconds: epochSecond * 1000)
        cached = (epochSecond, full.hasSuffix(".000") ? String(full.dropLast(4)) : full)
      }
      return cached.text
    }
    let millis = milliseconds % 1000
    return text + (millis < 10 ? ".00" : millis < 100 ? ".0" : ".") + String(millis)
  }
}
