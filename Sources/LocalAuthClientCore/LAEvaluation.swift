import LocalAuthProtocol
import Synchronization

/// One evaluation in progress: its live progress events, its outcome, and a way to cancel it.
/// Obtained from `LAContext.startEvaluation(_:localizedReason:)`. Thread-safe; usable from any task.
///
/// It ends exactly once, with the daemon's answer: an `EvaluationSuccess`, an `LAError`
/// (appCancel after `cancel()`, systemCancel if the daemon went away), or an `RPCError`
/// for broker errors such as alreadyInProgress.
public final class LAEvaluation: Sendable {
  private struct State {
    var callID: Int?
    var requestID: String?
    var cancelRequested = false
    var outcome: Result<JSONValue, any Error>?
    var waiters: [CheckedContinuation<JSONValue, any Error>] = []
  }

  /// The evaluation's progress notifications, in order; the stream ends when the evaluation ends.
  public let events: AsyncStream<LAEvaluationEvent>
  private let eventSink: AsyncStream<LAEvaluationEvent>.Continuation
  private let state = Mutex(State())
  private let connection: LocalAuthConnection

  init(connection: LocalAuthConnection) {
    self.connection = connection
    (events, eventSink) = AsyncStream.makeStream(of: LAEvaluationEvent.self)
  }

  /// The daemon's id for this evaluation, once a notification or the outcome revealed it.
  public var requestID: String? { state.withLock { $0.requestID } }

  /// Whether the evaluation has ended.
  public var isFinished: Bool { state.withLock { $0.outcome != nil } }

  /// Waits for the outcome. Cancelling the waiting task does not cancel the evaluation; call `cancel()`.
  public var outcome: EvaluationSuccess {
    get async throws {
      let json = try await result
      guard let success = EvaluationSuccess(json: json) else {
        throw RPCError(.internalError, "The daemon answered an unreadable evaluation result.")
      }
      return success
    }
  }

  /// The daemon's raw result object (for methods such as `right.authorize` whose result is not an EvaluationSuccess).
  var result: JSONValue {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        let ended: Result<JSONValue, any Error>? = state.withLock { state in
          if state.outcome == nil { state.waiters.append(continuation) }
          return state.outcome
        }
        if let ended { continuation.resume(with: ended) }
      }
    }
  }

  /// Asks the daemon to end the evaluation with appCancel (evaluation.cancel). Harmless after it ended.
  public func cancel() {
    let callID: Int? = state.withLock { state in
      guard state.outcome == nil else { return nil }
      state.cancelRequested = true
      return state.callID
    }
    if let callID { connection.cancelEvaluation(callID: callID) }
  }

  /// Whether `cancel()` was called before the request went out (it must then not be sent).
  var cancelledBeforeSending: Bool { state.withLock { $0.cancelRequested && $0.callID == nil } }

  /// Records the JSON-RPC id the evaluate request went out with; cancels at once if a cancel is owed.
  func sent(callID: Int) {
    let owed = state.withLock { state in
      state.callID = callID
      return state.cancelRequested && state.outcome == nil
    }
    if owed { connection.cancelEvaluation(callID: callID) }
  }

  /// Delivers a progress event.
  func receive(_ event: LAEvaluationEvent) {
    state.withLock { $0.requestID = $0.requestID ?? event.requestID }
    eventSink.yield(event)
  }

  /// Ends the evaluation; later calls are ignored, so it ends exactly once.
  func finish(_ outcome: Result<JSONValue, any Error>) {
    let waiters: [CheckedContinuation<JSONValue, any Error>]? = state.withLock { state in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      switch outcome {
      case .success(let json):
        state.requestID = Self.requestID(answeredIn: json) ?? state.requestID
      case .failure(let error as LAError): state.requestID = state.requestID ?? error.requestID
      case .failure: break
      }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    guard let waiters else { return }
    eventSink.finish()
    for waiter in waiters { waiter.resume(with: outcome) }
  }

  /// The evaluation's id as its answer names it, read through the answer's protocol type
  /// (evaluatePolicy's, right.authorize's or handoff.authorize's).
  static func requestID(answeredIn json: JSONValue) -> String? {
    if let success = EvaluationSuccess(json: json) { return success.requestID }
    if let handoff = HandoffAuthorizeResult(json: json) {
      return handoff.requestID.isEmpty ? nil : handoff.requestID
    }
    return RightAuthorizeResult(json: json)?.requestID
  }
}

extension LocalAuthConnection {
  /// Sends a request that may run an evaluation (evaluatePolicy, right.authorize, handoff.authorize),
  /// routing its progress notifications to `evaluation` and finishing it with the answer.
  /// Every such request must go through here, or its notifications would be taken for another's.
  func startEvaluating(_ method: String, _ params: JSONObject, into evaluation: LAEvaluation) {
    let callID = start(
      method, params, onEvent: { evaluation.receive($0) }, completion: { evaluation.finish($0) })
    if let callID { evaluation.sent(callID: callID) }
  }

  /// Calls a method that may run an evaluation; cancelling the task cancels it (evaluation.cancel).
  func callEvaluating(_ method: String, _ params: JSONObject) async throws -> JSONValue {
    let evaluation = LAEvaluation(connection: self)
    if Task.isCancelled { throw LAError(.appCancel, reason: "taskCancelled") }
    startEvaluating(method, params, into: evaluation)
    return try await withTaskCancellationHandler {
      try await evaluation.result
    } onCancel: {
      evaluation.cancel()
    }
  }
}
