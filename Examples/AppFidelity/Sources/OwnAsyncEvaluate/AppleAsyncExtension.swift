import LocalAuthentication

// open2fa and SwiftKit ship their own `async evaluatePolicy` with Apple's exact signature, from
// before Swift imported one. On a Mac it builds and a plain call in the app's module picks it;
// here too, since LAContext declares its own (not a base class's). A module of its own (the
// app's), so the test doubles in AppFidelity may still override the library's async form.
extension LAContext {
  func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
    try await withCheckedThrowingContinuation { continuation in
      evaluatePolicy(policy, localizedReason: localizedReason) { success, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: success)
        }
      }
    }
  }
}

/// The app's log-in, calling `evaluatePolicy` plainly: the extension's, not the library's.
public func logInWithOwnAsyncEvaluate(_ context: LAContext) async throws -> Bool {
  try await context.evaluatePolicy(
    .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
}
