import LocalAuthProtocol

/// What the broker records of each evaluation at start and at finish.
public struct EvaluationRecord: Sendable {
  /// The evaluation's id.
  public var requestID: String
  /// Its context's id.
  public var contextID: String
  /// The client's pid (SO_PEERCRED).
  public var clientPID: Int32
  /// The client's uid (SO_PEERCRED).
  public var clientUID: UInt32
  /// The client's declared or process name.
  public var clientName: String
  /// The uid whose presence is asked for (the client's own, unless root or an admin named `user`).
  public var ownerUID: UInt32
  /// The policy evaluated.
  public var policy: Policy
  /// The sensor used, once known.
  public var sensor: String?
}

/// How an evaluation ended, for the log.
public struct EvaluationResult: Sendable {
  /// "success", or the LAError / broker error name.
  public var name: String
  /// The error code, nil on success.
  public var code: ErrorCode?
  /// A reason detail ("timeout", "clientGone", …).
  public var reason: String?
}

/// Where the broker logs evaluations and notable events (stderr or the journal). Thread-safe.
/// `file`, `line` and `function` name the caller (CODE_FILE / CODE_LINE / CODE_FUNC in the journal).
public protocol EvaluationLog: Sendable {
  /// An evaluation started running against a sensor.
  func evaluationStarted(_ record: EvaluationRecord, file: String, line: Int, function: String)
  /// An evaluation ended (answered, or dropped because its client vanished).
  func evaluationFinished(
    _ record: EvaluationRecord, result: EvaluationResult, file: String, line: Int, function: String)
  /// A client went away with an evaluation pending (`requestID`), or was dropped for not reading.
  func clientDropped(
    pid: Int32, uid: UInt32, name: String, requestID: String?, reason: String, file: String,
    line: Int,
    function: String)
  /// Anything else worth a line: configuration, lockout, clients.
  func notice(_ message: String, file: String, line: Int, function: String)
  /// A detector found a likely cause of a second prompt (default: a notice).
  func finding(_ finding: Finding)
  /// An SSH key signature was asked for and given or refused (default: a notice).
  func sshSignature(_ record: SSHSignatureRecord)
}

/// One SSH key signature for the log: which key, for whom, bound to which host, and the outcome.
public struct SSHSignatureRecord: Sendable {
  /// The evaluation's id.
  public var requestID: String
  /// The key's name.
  public var keyName: String
  /// The key's SHA256 fingerprint.
  public var keyFingerprint: String
  /// The bound server host key's SHA256 fingerprint, when the agent's session was bound.
  public var hostKeyFingerprint: String?
  /// The key's owner.
  public var ownerUID: UInt32
  /// The client's pid (the agent).
  public var clientPID: Int32
  /// "signed", or the error name that refused it.
  public var outcome: String
  /// The reason shown.
  public var reason: String

  /// The line a log without structured fields prints.
  public var summary: String {
    "SSH key \(keyName) (\(keyFingerprint)) of uid \(ownerUID): \(outcome) for \"\(reason)\""
      + (hostKeyFingerprint.map { ", host key \($0)" } ?? "") + ", request \(requestID)"
  }
}

extension EvaluationLog {
  /// Logs an SSH key signature as a notice (logs without a structured form of their own).
  public func sshSignature(_ record: SSHSignatureRecord) { notice(record.summary) }
}

extension EvaluationLog {
  /// Logs an evaluation's start from the caller's location.
  public func evaluationStarted(
    _ record: EvaluationRecord, file: String = #fileID, line: Int = #line,
    function: String = #function
  ) {
    evaluationStarted(record, file: file, line: line, function: function)
  }

  /// Logs an evaluation's end from the caller's location.
  public func evaluationFinished(
    _ record: EvaluationRecord, result: EvaluationResult, file: String = #fileID, line: Int = #line,
    function: String = #function
  ) {
    evaluationFinished(record, result: result, file: file, line: line, function: function)
  }

  /// Logs a dropped client from the caller's location.
  public func clientDropped(
    pid: Int32, uid: UInt32, name: String, requestID: String?, reason: String,
    file: String = #fileID,
    line: Int = #line, function: String = #function
  ) {
    clientDropped(
      pid: pid, uid: uid, name: name, requestID: requestID, reason: reason, file: file, line: line,
      function: function)
  }

  /// Logs a notice from the caller's location.
  public func notice(
    _ message: String, file: String = #fileID, line: Int = #line, function: String = #function
  ) {
    notice(message, file: file, line: line, function: function)
  }
}

/// A log that keeps nothing (for tests that do not look at logs).
public struct SilentLog: EvaluationLog {
  /// A silent log.
  public init() {}
  /// Ignored.
  public func evaluationStarted(
    _ record: EvaluationRecord, file: String, line: Int, function: String
  ) {}
  /// Ignored.
  public func evaluationFinished(
    _ record: EvaluationRecord, result: EvaluationResult, file: String, line: Int, function: String
  ) {}
  /// Ignored.
  public func clientDropped(
    pid: Int32, uid: UInt32, name: String, requestID: String?, reason: String, file: String,
    line: Int,
    function: String
  ) {}
  /// Ignored.
  public func notice(_ message: String, file: String, line: Int, function: String) {}
}
