import LocalAuthProtocol

/// How an evaluation's end is told: counted for broker.status, logged (within the at-once budget),
/// and the log record and typed error it is told with.
extension Broker {
  /// Counts an outcome for broker.status and logs the evaluation's finish: one line each, but for
  /// evaluations that ended at once (`atOnce`) past their uid's `AtOnceLogBudget`, which are
  /// counted and reported together.
  @discardableResult
  func account(
    _ outcome: EvaluationOutcome, of evaluation: Evaluation, successReason: String? = nil,
    atOnce: Bool = false
  ) -> EvaluationResult {
    let result: EvaluationResult
    switch outcome {
    case .success:
      result = EvaluationResult(name: "success", code: nil, reason: successReason)
    case .failure(let error):
      result = EvaluationResult(
        name: error.code.name, code: error.code, reason: error.data["reason"]?.stringValue)
    }
    let log = observability.ended(
      result, uid: evaluation.client.peer.uid, atOnce: atOnce, now: services.time.now())
    for line in log.heldBack { services.log.notice(line) }
    if log.logsTheEvaluation {
      services.log.evaluationFinished(record(evaluation), result: result)
    }
    announceEnvironmentChange()
    return result
  }

  /// Logs, one entry per uid, the evaluations that ended at once and were held back by the budget
  /// in a second that is over.
  func logSuppressedAtOnce(now: Duration) {
    for line in observability.suppressedAtOnceLines(now: now) {
      services.log.notice(line)
    }
  }

  func record(_ evaluation: Evaluation) -> EvaluationRecord {
    EvaluationRecord(
      requestID: evaluation.requestID, contextID: evaluation.context.id,
      clientPID: evaluation.client.peer.pid,
      clientUID: evaluation.client.peer.uid, clientName: evaluation.client.name,
      ownerUID: evaluation.owner.uid,
      policy: evaluation.policy,
      sensor: evaluation.sensor)
  }

  func error(
    _ code: ErrorCode, _ evaluation: Evaluation, reason: String? = nil, message: String? = nil
  ) -> RPCError {
    RPCError(
      code, message,
      data: ["requestID": .string(evaluation.requestID), "reason": reason.map(JSONValue.string)])
  }
}
