import Foundation
import LocalAuthProtocol

/// A mechanism for evaluating authentication policies, shaped like Apple's `LAContext`.
///
/// Each `LAContext` is one daemon-side context (made on first evaluation), so two contexts
/// evaluate independently (queued one after the other by the broker), while a second evaluation
/// on a context that is still busy fails at once with `RPCError` alreadyInProgress.
/// Deinitialising a context invalidates it, ending its evaluation in flight with appCancel.
/// Thread-safe: properties may be read and set from any thread or task; all state lives in a
/// `Sendable` core, which is why the open class is `@unchecked Sendable`. Open, so apps can
/// subclass it for test doubles (override `canEvaluatePolicy(_:error:)` and
/// `evaluatePolicy(_:localizedReason:)` / `evaluatePolicy(_:localizedReason:reply:)`).
///
/// ```swift
/// let context = LAContext()
/// var error: NSError?
/// guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
///   print(error?.localizedDescription ?? "unavailable")
///   return
/// }
/// let ok = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
/// ```
open class LAContext: @unchecked Sendable {
  let core: ContextCore

  /// A context on the shared connection.
  public init() { core = ContextCore(connection: .shared) }

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
  ///
  /// - Parameter policy: The policy to check.
  /// - Throws: the `LAError` an evaluation would end with; `ConnectionError` when the daemon
  ///   cannot be reached.
  open func canEvaluatePolicy(_ policy: LAPolicy) throws {
    if core.state.withLock({ $0.invalidated }) { throw LAError(.invalidContext) }
    var params: JSONObject = ["policy": policy.json]
    params["context"] = core.liveHandle
    let result =
      try core.connection.callAndWait(Method.canEvaluatePolicy, params).objectValue ?? [:]
    if let type = result["biometryType"]?.stringValue.flatMap(LABiometryType.init(name:)) {
      core.state.withLock { $0.biometryType = type }
    }
    guard result["canEvaluate"]?.boolValue == false else {
      if policy.usesBiometry { core.state.withLock { $0.domainStateEvaluated = true } }
      return
    }
    let error = result["error"].flatMap(RPCError.init(json:)) ?? RPCError(.internalError)
    throw clientError(error)
  }

  /// Apple's form: whether the policy can be evaluated, with the reason in `error` when not.
  ///
  /// - Parameters:
  ///   - policy: The policy to check.
  ///   - error: Set to the failure as an `NSError` in `LAErrorDomain` with Apple's code
  ///     (`LAError(_bridged:)` style: `LAError.Code(rawValue: error.code)`); other failures
  ///     (the daemon unreachable) keep their own domain.
  /// - Returns: true when an evaluation could start.
  ///
  /// ```swift
  /// var error: NSError?
  /// if context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) { … }
  /// ```
  open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
    do {
      try canEvaluatePolicy(policy)
      return true
    } catch let failure as LAError {
      error?.pointee = failure.nsError
    } catch let failure as RPCError {
      error?.pointee = NSError(
        domain: "localauthd.RPCError", code: failure.code.rawValue,
        userInfo: [NSLocalizedDescriptionKey: failure.message])
    } catch let failure {
      error?.pointee = NSError(
        domain: "localauthd.ConnectionError", code: -1,
        userInfo: [NSLocalizedDescriptionKey: String(describing: failure)])
    }
    return false
  }

  /// Evaluates the policy, showing the daemon's prompt with `localizedReason`. Returns true on success.
  /// Cancelling the awaiting task cancels the evaluation (evaluation.cancel) and throws `LAError.appCancel`.
  ///
  /// - Parameters:
  ///   - policy: What the user must prove.
  ///   - localizedReason: Shown in the prompt; must not be empty.
  /// - Returns: true (a failure throws).
  /// - Throws: `LAError` (userCancel, appCancel, authenticationFailed, …); `RPCError`
  ///   alreadyInProgress when this context is already evaluating, queueFull when the broker's
  ///   queue is full; `ConnectionError` when the daemon cannot be reached.
  ///
  /// ```swift
  /// do {
  ///   try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock")
  /// } catch LAError.userCancel { … }
  /// ```
  @discardableResult
  open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
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
    if policy.usesBiometry { core.state.withLock { $0.domainStateEvaluated = true } }
    return success
  }

  /// The completion-handler form: `reply` runs once, on an arbitrary thread, with the outcome.
  /// As with Apple's, the evaluation keeps this context alive until `reply` has run, so Apple's
  /// sample (a local `let context = LAContext()`) works; `invalidate()` still ends it with appCancel.
  open func evaluatePolicy(
    _ policy: LAPolicy, localizedReason: String,
    reply: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    let evaluation = startEvaluation(policy, localizedReason: localizedReason)
    Task { [self] in
      do {
        _ = try await evaluation.outcome
        if policy.usesBiometry { core.state.withLock { $0.domainStateEvaluated = true } }
        reply(true, nil)
      } catch {
        reply(false, error)
      }
      withExtendedLifetime(self) {}
    }
  }

  /// Starts an evaluation and returns at once with its handle: live progress `events`,
  /// the `outcome`, and `cancel()`.
  public func startEvaluation(_ policy: LAPolicy, localizedReason: String) -> LAEvaluation {
    core.startEvaluation(policy, localizedReason: localizedReason)
  }

  /// Invalidates the context: an evaluation in flight ends with appCancel; later calls fail with invalidContext.
  open func invalidate() { core.invalidate() }

  /// The current domain state (`context.domainState`), as Apple's non-throwing property; blocks
  /// for one round trip. When the daemon cannot be asked, every hash is nil.
  open var domainState: LADomainState {
    var params: JSONObject = [:]
    params["context"] = core.liveHandle
    let json = try? core.connection.callAndWait(Method.domainState, params)
    let type = core.connection.serverInfo?.biometryType ?? biometryType
    return LADomainState(json: json ?? .null, biometryType: type)
  }

  /// The hash of the enrolled biometric set, as Apple's: nil until `canEvaluatePolicy` succeeded
  /// for a biometric policy or such an evaluation succeeded on this context; nil also when nothing
  /// is enrolled or the daemon cannot be asked.
  open var evaluatedPolicyDomainState: Data? {
    guard core.state.withLock({ $0.domainStateEvaluated }) else { return nil }
    return domainState.biometry.stateHash
  }
}
