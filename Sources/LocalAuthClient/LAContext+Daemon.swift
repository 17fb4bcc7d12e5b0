import LocalAuthProtocol

// What LAContext adds to Apple's API: the throwing check, the daemon's details of a success and
// the live evaluation handle. Not open: test doubles override Apple's members.
extension LAContext {
  /// Checks, without any prompt, whether the policy can be evaluated; throws the `LAError` that
  /// an evaluation would end with. Blocks for one round trip to the daemon.
  ///
  /// - Throws: the `LAError` an evaluation would end with; `ConnectionError` when the daemon
  ///   cannot be reached.
  public func canEvaluatePolicy(_ policy: LAPolicy) throws {
    try localAuthContext.canEvaluatePolicy(policy)
  }

  /// Evaluates the policy and returns the daemon's details (requestID, sensor, reused).
  /// Cancellation behaves as for `evaluatePolicy(_:localizedReason:)`.
  public func evaluate(_ policy: LAPolicy, localizedReason: String) async throws
    -> EvaluationSuccess
  {
    try await localAuthContext.evaluate(policy, localizedReason: localizedReason)
  }

  /// Starts an evaluation and returns at once with its handle: live progress `events`, the
  /// `outcome`, and `cancel()`.
  public func startEvaluation(_ policy: LAPolicy, localizedReason: String) -> LAEvaluation {
    localAuthContext.startEvaluation(policy, localizedReason: localizedReason)
  }
}

extension NSError {
  /// A client call's failure as Apple code sees it: an `LAError` in `LAErrorDomain` with Apple's
  /// code, a daemon error in `localauthd.RPCError` with its JSON-RPC code, and anything else
  /// (the daemon unreachable) in `localauthd.ConnectionError` with code 1, never an LAError's.
  convenience init(clientError failure: any Error) {
    switch failure {
    case let failure as LAError:
      self.init(domain: LAErrorDomain, code: failure.code.rawValue, userInfo: failure.errorUserInfo)
    case let failure as RPCError:
      self.init(
        domain: "localauthd.RPCError", code: failure.code.rawValue,
        userInfo: [NSLocalizedDescriptionKey: failure.message])
    default:
      self.init(
        domain: ConnectionError.errorDomain, code: ConnectionError.cannotConnectCode,
        userInfo: [NSLocalizedDescriptionKey: String(describing: failure)])
    }
  }
}
