import LocalAuthProtocol

/// A mechanism for evaluating authentication policies, shaped like Apple's `LAContext`: the
/// daemon-side context of `LocalAuthContext` plus Apple's `NSError` forms.
///
/// Open, with open properties and methods, so apps subclass it for test doubles
/// (`override var biometryType`, `override func canEvaluatePolicy(_:error:)`). Thread-safe; see
/// `LocalAuthContext` for how contexts map to the daemon.
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
open class LAContext: LocalAuthContext, @unchecked Sendable {
  /// Apple's form: whether the policy can be evaluated, with the reason in `error` when not.
  ///
  /// - Parameters:
  ///   - policy: The policy to check.
  ///   - error: Set to the failure as an `NSError` in `LAErrorDomain` with Apple's code, so
  ///     `error as? LAError` gives the `LAError` back; other failures (the daemon unreachable)
  ///     keep their own domain.
  /// - Returns: true when an evaluation could start.
  ///
  /// ```swift
  /// var error: NSError?
  /// if context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) { … }
  /// ```
  @discardableResult
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
      // The daemon unreachable: its own domain and a positive code, never an LAError's.
      error?.pointee = NSError(
        domain: ConnectionError.errorDomain, code: ConnectionError.cannotConnectCode,
        userInfo: [NSLocalizedDescriptionKey: String(describing: failure)])
    }
    return false
  }
}
