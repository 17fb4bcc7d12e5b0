import LocalAuthentication

// Two test doubles that subclass LAContext, as apps' unit tests write them.

/// A configurable mock: every answer is set by the test.
final class MockLAContext: LAContext {
  var mockBiometryType: LABiometryType = .faceID
  var canEvaluateResult = true
  var canEvaluateError: NSError?
  var evaluateResult = true
  var evaluateError: Error?
  private(set) var evaluatedReasons: [String] = []

  override var biometryType: LABiometryType { mockBiometryType }

  override func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
    error?.pointee = canEvaluateError
    return canEvaluateResult
  }

  override func evaluatePolicy(
    _ policy: LAPolicy, localizedReason: String,
    reply: @escaping @Sendable (Bool, Error?) -> Void
  ) {
    evaluatedReasons.append(localizedReason)
    reply(evaluateResult, evaluateError)
  }

  override func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
    evaluatedReasons.append(localizedReason)
    if let evaluateError { throw evaluateError }
    return evaluateResult
  }
}

/// A stub that only pretends to have Touch ID and a fixed enrolment.
final class TouchIDStubContext: LAContext {
  override var biometryType: LABiometryType { .touchID }
  override var evaluatedPolicyDomainState: Data? { Data([1, 2, 3]) }
}

/// A spy written before Apple's reply was `@Sendable`: its override's reply is a plain closure.
/// Neither double restates `@unchecked Sendable` (Apple's LAContext is not Sendable).
final class SpyLAContext: LAContext {
  private(set) var calls = 0

  override func evaluatePolicy(
    _ policy: LAPolicy, localizedReason: String, reply: @escaping (Bool, Error?) -> Void
  ) {
    calls += 1
    reply(true, nil)
  }
}
