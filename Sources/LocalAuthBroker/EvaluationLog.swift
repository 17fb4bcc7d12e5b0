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
public protocol EvaluationLog: Sendable {
    /// An evaluation started running against a sensor.
    func evaluationStarted(_ record: EvaluationRecord)
    /// An evaluation ended (answered, or dropped because its client vanished).
    func evaluationFinished(_ record: EvaluationRecord, result: EvaluationResult)
    /// Anything else worth a line: configuration, lockout, clients.
    func notice(_ message: String)
}

/// A log that keeps nothing (for tests that do not look at logs).
public struct SilentLog: EvaluationLog {
    /// A silent log.
    public init() {}
    /// Ignored.
    public func evaluationStarted(_ record: EvaluationRecord) {}
    /// Ignored.
    public func evaluationFinished(_ record: EvaluationRecord, result: EvaluationResult) {}
    /// Ignored.
    public func notice(_ message: String) {}
}
