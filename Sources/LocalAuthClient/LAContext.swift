import FoundationEssentials
import LocalAuthProtocol

/// A mechanism for evaluating authentication policies, shaped like Apple's `LAContext`.
///
/// Each `LAContext` is one daemon-side context (made on first evaluation), so two contexts
/// evaluate independently (queued one after the other by the broker), while a second evaluation
/// on a context that is still busy fails at once with `RPCError` alreadyInProgress.
/// Deinitialising a context invalidates it, ending its evaluation in flight with appCancel.
/// Thread-safe: properties may be read and set from any thread or task.
public final class LAContext: Sendable {
  let core: ContextCore

  /// A context on the shared connection.
  public convenience init() { self.init(connection: .shared) }

  /// A context on the given connection.
  public init(connection: LocalAuthConnection) { core = ContextCore(connection: connection) }

  deinit { core.invalidate() }

  /// The connection this context uses.
  public var connection: LocalAuthConnection { core.connection }

  /// Whether the evaluation must fail with notInteractive rather than show a prompt.
  public var interactionNotAllowed: Bool {
    get { core.state.withLock { $0.options.interactionNotAllowed } }
    set { core.state.withLock { $0.options.interactionNotAllowed = newValue } }
  }

  /// How long a success of this context is reused without a new prompt, 0…300 seconds.
  public var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
    get { core.state.withLock { $0.options.reuseDuration } }
    set {
      let clamped = min(max(newValue, 0), ContextOptions.maximumReuseDuration)
      core.state.withLock { $0.options.reuseDuration = clamped }
    }
  }

  /// The title of the fallback button; an empty string hides it.
  public var localizedFallbackTitle: String? {
    get { core.state.withLock { $0.options.localizedFallbackTitle } }
    set { core.state.withLock { $0.options.localizedFallbackTitle = newValue } }
  }

  /// The title of the cancel button.
  public var localizedCancelTitle: String? {
    get { core.state.withLock { $0.options.localizedCancelTitle } }
    set { core.state.withLock { $0.options.localizedCancelTitle = newValue } }
  }

  /// The device's biometry type, known after `canEvaluatePolicy(_:)` (as on Apple platforms).
  public var biometryType: LABiometryType { core.state.withLock { $0.biometryType } }

  /// Checks, without any prompt, whether the policy can be evaluated; throws the `LAError` that
  /// an evaluation would end with (biometryNotEnrolled, passcodeNotSet, biometryLockout, …).
  /// Blocks for one round trip to the daemon.
  public func canEvaluatePolicy(_ policy: LAPolicy) throws {
    if core.state.withLock({ $0.invalidated }) { throw LAError(.invalidContext) }
    var params: JSONObject = ["policy": policy.json]
    params["context"] = core.liveHandle
    let result =
      try core.connection.callAndWait(Method.canEvaluatePolicy, params).objectValue ?? [:]
    if let type = result["biometryType"]?.stringValue.flatMap(LABiometryType.init(rawValue:)) {
      core.state.withLock { $0.biometryType = type }
    }
    guard result["canEvaluate"]?.boolValue == false else { return }
    let error = result["error"].flatMap(RPCError.init(json:)) ?? RPCError(.internalError)
    throw clientError(error)
  }

  /// Evaluates the policy, showing the daemon's prompt with `localizedReason`. Returns true on success.
  /// Cancelling the awaiting task cancels the evaluation (evaluation.cancel) and throws `LAError.appCancel`.
  public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
    _ = try await evaluate(policy, localizedReason: localizedReason)
    return true
  }

  /// Evaluates the policy and returns the daemon's details (requestID, sensor, reused).
  /// Cancellation behaves as for `evaluatePolicy(_:localizedReason:)`.
  public func evaluate(_ policy: LAPolicy, localizedReason: String) async throws
    -> EvaluationSuccess
  {
    let evaluation = startEvaluation(policy, localizedReason: localizedReason)
    let success = try await withTaskCancellationHandler {
      try await evaluation.outcome
    } onCancel: {
      evaluation.cancel()
    }
    // A task cancelled while the answer was on its way must not carry on as if authenticated.
    if Task.isCancelled {
      throw LAError(.appCancel, requestID: success.requestID, reason: "taskCancelled")
    }
    return success
  }

  /// The completion-handler form: `reply` runs once, on an arbitrary thread, with the outcome.
  /// The evaluation does not keep this context alive; if it is deinitialised first, `reply` gets appCancel.
  public func evaluatePolicy(
    _ policy: LAPolicy, localizedReason: String,
    reply: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    let evaluation = startEvaluation(policy, localizedReason: localizedReason)
    Task {
      do {
        _ = try await evaluation.outcome
        reply(true, nil)
      } catch {
        reply(false, error)
      }
    }
  }

  /// Starts an evaluation and returns at once with its handle: live progress `events`,
  /// the `outcome`, and `cancel()`.
  public func startEvaluation(_ policy: LAPolicy, localizedReason: String) -> LAEvaluation {
    core.startEvaluation(policy, localizedReason: localizedReason)
  }

  /// Invalidates the context: an evaluation in flight ends with appCancel; later calls fail with invalidContext.
  public func invalidate() { core.invalidate() }

  /// The current domain state (`context.domainState`); blocks for one round trip.
  public var domainState: LADomainState {
    get throws {
      var params: JSONObject = [:]
      params["context"] = core.liveHandle
      return LADomainState(json: try core.connection.callAndWait(Method.domainState, params))
    }
  }

  /// The hash of the enrolled biometric set, or nil if nothing is enrolled or the daemon cannot be asked.
  public var evaluatedPolicyDomainState: Data? { (try? domainState)?.biometry.stateHash }
}
