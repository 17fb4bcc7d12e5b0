import FoundationEssentials
import LocalAuthProtocol

/// The daemon-side context behind Apple's `LAContext`, without Foundation: LocalAuthClient's
/// `LAContext` (an `NSObject`) holds one and forwards to it, and localauthctl uses it directly.
///
/// Each context is one daemon-side context (made on first evaluation), so two contexts
/// evaluate independently (queued one after the other by the broker), while a second evaluation
/// on a context that is still busy fails at once with `RPCError` alreadyInProgress.
/// Deinitialising a context invalidates it, ending its evaluation in flight with appCancel.
/// Thread-safe: properties may be read and set from any thread or task. `@unchecked Sendable`:
/// all state lives in a `Sendable` core (`ContextCore`, behind a lock), and an open class cannot
/// prove that for its subclasses. Open, with open properties, so apps can subclass it for test
/// doubles (`override var biometryType`).
///
/// ```swift
/// let context = LocalAuthContext()
/// try context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)
/// try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
/// ```
open class LocalAuthContext: @unchecked Sendable {
  let core: ContextCore

  /// A context on the shared connection.
  public init() { core = ContextCore(connection: .shared) }

  /// A context on the given connection.
  public init(connection: LocalAuthConnection) { core = ContextCore(connection: connection) }

  deinit { core.invalidate() }

  /// The connection this context uses.
  public var connection: LocalAuthConnection { core.connection }

  /// Whether the evaluation must fail with notInteractive rather than show a prompt.
  open var interactionNotAllowed: Bool {
    get { core.state.withLock { $0.options.interactionNotAllowed } }
    set { core.state.withLock { $0.options.interactionNotAllowed = newValue } }
  }

  /// How long a success of this context is reused without a new prompt, 0…300 seconds.
  open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
    get { core.state.withLock { $0.options.reuseDuration } }
    set {
      let clamped = min(max(newValue, 0), ContextOptions.maximumReuseDuration)
      core.state.withLock { $0.options.reuseDuration = clamped }
    }
  }

  /// The title of the fallback button; an empty string hides it.
  open var localizedFallbackTitle: String? {
    get { core.state.withLock { $0.options.localizedFallbackTitle } }
    set { core.state.withLock { $0.options.localizedFallbackTitle = newValue } }
  }

  /// The title of the cancel button.
  open var localizedCancelTitle: String? {
    get { core.state.withLock { $0.options.localizedCancelTitle } }
    set { core.state.withLock { $0.options.localizedCancelTitle = newValue } }
  }

  /// The explanation used when an operation asks for authentication without giving a reason of
  /// its own (Apple's `localizedReason`); `evaluatePolicy` still takes its reason as an argument.
  open var localizedReason: String {
    get { core.state.withLock { $0.localizedReason } }
    set { core.state.withLock { $0.localizedReason = newValue } }
  }

  /// Sets (or, with nil, clears) a credential of this context, as Apple's
  /// `setCredential(_:type:)`. The credential stays in this process: the context holds it and
  /// hands it to code that asks for the application password; the daemon never sees it.
  ///
  /// - Parameters:
  ///   - credential: The credential's bytes (for `.applicationPassword`, the password), or nil.
  ///   - type: Which credential.
  /// - Returns: true when it was set or cleared; false for an empty credential or once the
  ///   context is invalidated.
  @discardableResult
  open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
    core.state.withLock { state in
      guard !state.invalidated, credential?.isEmpty != true else { return false }
      state.credentials[type] = credential
      return true
    }
  }

  /// Whether a credential of this type is set on this context (Apple's `isCredentialSet(_:)`).
  open func isCredentialSet(_ type: LACredentialType) -> Bool {
    core.state.withLock { $0.credentials[type] != nil }
  }

  /// The application password set with `setCredential(_:type:)`, for code that unlocks its own
  /// secrets with it; nil when none is set.
  public var applicationPassword: Data? {
    core.state.withLock { $0.credentials[.applicationPassword] }
  }

  /// The device's biometry type, known after `canEvaluatePolicy(_:)` (as on Apple platforms).
  open var biometryType: LABiometryType { core.state.withLock { $0.biometryType } }

  /// Checks, without any prompt, whether the policy can be evaluated; throws the `LAError` that
  /// an evaluation would end with (biometryNotEnrolled, passcodeNotSet, biometryLockout, …).
  /// Blocks for one round trip to the daemon.
  ///
  /// - Parameter policy: The policy to check.
  /// - Throws: the `LAError` an evaluation would end with; `ConnectionError` when the daemon
  ///   cannot be reached.
  open func canEvaluatePolicy(_ policy: LAPolicy) throws {
    if core.state.withLock({ $0.invalidated }) { throw LAError(.invalidContext) }
    let params = CanEvaluatePolicyRequest.Params(policy: policy, context: core.liveHandle)
    let result = try core.connection.callAndWait(CanEvaluatePolicyRequest.self, params)
    if let type = LABiometryType(name: result.biometryType.rawValue) {
      core.state.withLock { $0.biometryType = type }
    }
    guard let refusal = result.refusal else {
      if policy.usesBiometry { core.state.withLock { $0.domainStateEvaluated = true } }
      return
    }
    throw clientError(refusal.error)
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
  /// `@preconcurrency`, as the Objective-C import of Apple's method is.
  @preconcurrency
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
    let params = DomainStateRequest.Params(context: core.liveHandle)
    let result = try? core.connection.callAndWait(DomainStateRequest.self, params)
    let type = core.connection.serverInfo?.biometryType ?? biometryType
    return LADomainState(result, biometryType: type)
  }

  /// The hash of the enrolled biometric set, as Apple's: nil until `canEvaluatePolicy` succeeded
  /// for a biometric policy or such an evaluation succeeded on this context; nil also when nothing
  /// is enrolled or the daemon cannot be asked.
  open var evaluatedPolicyDomainState: Data? {
    guard core.state.withLock({ $0.domainStateEvaluated }) else { return nil }
    return domainState.biometry.stateHash
  }
}

/// The kinds of credential a context can hold (Apple's `LACredentialType`), with Apple's raw values.
public enum LACredentialType: Int, Sendable, Hashable {
  /// A password the app supplies for its own protected items.
  case applicationPassword = 0
  /// A smart card PIN (accepted and held, as Apple's; nothing here reads it).
  case smartCardPIN = -3
}

/// The greatest `touchIDAuthenticationAllowableReuseDuration`, in seconds (Apple's constant).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval =
  ContextOptions.maximumReuseDuration
