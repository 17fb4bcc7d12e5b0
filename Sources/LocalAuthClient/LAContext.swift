import LocalAuthProtocol

/// A mechanism for evaluating authentication policies and access controls, shaped like Apple's
/// `LAContext`: an `NSObject` subclass that declares every member of Apple's class itself.
///
/// It holds a ``LocalAuthContext`` (the Foundation-free context from LocalAuthClientCore, which
/// localauthctl uses) and forwards to it, rather than inheriting from it, so that an app's own
/// `extension LAContext` may re-declare one of Apple's members (open2fa's `async evaluatePolicy`)
/// without overriding a superclass method, as on Apple platforms.
///
/// Not `Sendable`, as Apple's is not: use one context from one task or thread at a time, or hand
/// it over with `sending`. Its state lives in the held context, which is thread-safe, so a
/// context that is still used after all is no data race inside the library. Open, with open
/// properties and methods, so apps subclass it for test doubles (`override var biometryType`,
/// `override func canEvaluatePolicy(_:error:)`) without restating any conformance.
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
open class LAContext: NSObject {
  /// The daemon-side context this one forwards to; thread-safe (`Sendable`).
  public let localAuthContext: LocalAuthContext

  /// A context on the shared connection (Apple's `init()`).
  public override init() {
    localAuthContext = LocalAuthContext()
    super.init()
  }

  /// A context on the given connection.
  public init(connection: LocalAuthConnection) {
    localAuthContext = LocalAuthContext(connection: connection)
    super.init()
  }

  /// The connection this context uses.
  public var connection: LocalAuthConnection { localAuthContext.connection }

  /// Whether the evaluation must fail with notInteractive rather than show a prompt.
  open var interactionNotAllowed: Bool {
    get { localAuthContext.interactionNotAllowed }
    set { localAuthContext.interactionNotAllowed = newValue }
  }

  /// How long a success of this context is reused without a new prompt, 0…300 seconds.
  open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
    get { localAuthContext.touchIDAuthenticationAllowableReuseDuration }
    set { localAuthContext.touchIDAuthenticationAllowableReuseDuration = newValue }
  }

  /// The title of the fallback button; an empty string hides it.
  open var localizedFallbackTitle: String? {
    get { localAuthContext.localizedFallbackTitle }
    set { localAuthContext.localizedFallbackTitle = newValue }
  }

  /// The title of the cancel button.
  open var localizedCancelTitle: String? {
    get { localAuthContext.localizedCancelTitle }
    set { localAuthContext.localizedCancelTitle = newValue }
  }

  /// The explanation used when an operation asks for authentication without a reason of its own.
  open var localizedReason: String {
    get { localAuthContext.localizedReason }
    set { localAuthContext.localizedReason = newValue }
  }

  /// Sets (or, with nil, clears) a credential of this context (Apple's `setCredential(_:type:)`);
  /// it stays in this process. Returns false for an empty credential or an invalidated context.
  @discardableResult
  open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
    localAuthContext.setCredential(credential, type: type)
  }

  /// Whether a credential of this type is set on this context (Apple's `isCredentialSet(_:)`).
  open func isCredentialSet(_ type: LACredentialType) -> Bool {
    localAuthContext.isCredentialSet(type)
  }

  /// The application password set with `setCredential(_:type:)`, or nil.
  public var applicationPassword: Data? { localAuthContext.applicationPassword }

  /// The device's biometry type, known after `canEvaluatePolicy` (as on Apple platforms).
  open var biometryType: LABiometryType { localAuthContext.biometryType }

  /// The current domain state, as Apple's non-throwing property; blocks for one round trip.
  open var domainState: LADomainState { localAuthContext.domainState }

  /// The hash of the enrolled biometric set, nil until a biometric check or evaluation succeeded.
  open var evaluatedPolicyDomainState: Data? { localAuthContext.evaluatedPolicyDomainState }

  /// Apple's form: whether the policy can be evaluated, with the reason in `error` when not.
  ///
  /// - Parameters:
  ///   - policy: The policy to check.
  ///   - error: Set to the failure as an `NSError` in `LAErrorDomain` with Apple's code, so
  ///     `error as? LAError` gives the `LAError` back; other failures (the daemon unreachable)
  ///     keep their own domain and a positive code.
  /// - Returns: true when an evaluation could start.
  ///
  /// ```swift
  /// var error: NSError?
  /// if context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) { … }
  /// ```
  @discardableResult
  open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
    do {
      try localAuthContext.canEvaluatePolicy(policy)
      return true
    } catch let failure {
      error?.pointee = NSError(clientError: failure)
      return false
    }
  }

  /// Evaluates the policy, showing the daemon's prompt with `localizedReason`; Apple's `async`
  /// form, declared here (not inherited) so an app's `extension LAContext` may re-declare it.
  /// Cancelling the awaiting task cancels the evaluation and throws `LAError.appCancel`.
  ///
  /// - Parameters:
  ///   - policy: What the user must prove.
  ///   - localizedReason: Shown in the prompt; must not be empty.
  /// - Returns: true (a failure throws).
  /// - Throws: `LAError` (userCancel, appCancel, authenticationFailed, …); `RPCError`
  ///   alreadyInProgress or queueFull; `ConnectionError` when the daemon cannot be reached.
  @discardableResult
  open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
    try await localAuthContext.evaluatePolicy(policy, localizedReason: localizedReason)
  }

  /// The completion-handler form: `reply` runs once, on an arbitrary thread, with the outcome.
  /// The evaluation keeps its context alive until `reply` has run, so Apple's sample (a local
  /// `let context = LAContext()`) works; `invalidate()` still ends it with appCancel.
  ///
  /// `@preconcurrency`, as the Objective-C import of Apple's method is: the reply is `@Sendable`,
  /// and capturing a non-Sendable `self` or completion handler in it is a warning in Swift 6
  /// mode, not an error. A subclass may override it with a plain or a `@Sendable` reply.
  @preconcurrency
  open func evaluatePolicy(
    _ policy: LAPolicy, localizedReason: String,
    reply: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    localAuthContext.evaluatePolicy(policy, localizedReason: localizedReason, reply: reply)
  }

  /// Evaluates an access control (Apple's `evaluateAccessControl(_:operation:localizedReason:)`):
  /// the policies its flags name, in the order ``SecAccessControl`` documents; see
  /// ``AccessControlRequirement`` for the mapping.
  ///
  /// - Returns: true (a failure throws).
  /// - Throws: the `LAError` of the first policy that failed; `LAError.notInteractive` for an
  ///   application password that is not set on this context.
  @discardableResult
  open func evaluateAccessControl(
    _ accessControl: SecAccessControl, operation: LAAccessControlOperation,
    localizedReason: String
  ) async throws -> Bool {
    try await LAContext.evaluate(
      accessControl, operation: operation, localizedReason: localizedReason, on: localAuthContext)
  }

  /// The completion-handler form of `evaluateAccessControl`; `@preconcurrency` as
  /// `evaluatePolicy(_:localizedReason:reply:)` is.
  @preconcurrency
  open func evaluateAccessControl(
    _ accessControl: SecAccessControl, operation: LAAccessControlOperation,
    localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    let context = localAuthContext
    Task {
      do {
        _ = try await LAContext.evaluate(
          accessControl, operation: operation, localizedReason: localizedReason, on: context)
        reply(true, nil)
      } catch {
        reply(false, error)
      }
    }
  }

  /// Invalidates the context: an evaluation in flight ends with appCancel; later calls fail with
  /// invalidContext.
  open func invalidate() { localAuthContext.invalidate() }
}
