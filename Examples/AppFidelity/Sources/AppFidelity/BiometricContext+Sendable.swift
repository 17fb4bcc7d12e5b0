import LocalAuthentication

// The same protocol as BiometricContext.swift, as it must read in Swift 6 mode: its reply is
// `@Sendable`, as Apple's SDK declares LAContext's. With a plain reply, Swift 6 mode rejects
// LAContext's conformance on a Mac too (Swift 6.2 imports Objective-C completion handlers as
// `@Sendable`, SE-0463, and a @Sendable parameter cannot witness a plain one in Swift 6 mode);
// Swift 5 mode warns. Package.swift builds this file in Swift 6 mode, the other in Swift 5.

/// What the app needs of a context.
protocol BiometricContext {
  func canEvaluatePolicy(_: LAPolicy, error: NSErrorPointer) -> Bool
  func evaluatePolicy(
    _: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, Error?) -> Void)
}

extension LAContext: BiometricContext {}

/// A fake for the app's tests.
final class FakeBiometricContext: BiometricContext {
  var answer = true

  func canEvaluatePolicy(_: LAPolicy, error: NSErrorPointer) -> Bool { answer }

  func evaluatePolicy(
    _: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, Error?) -> Void
  ) {
    reply(answer, answer ? nil : LAError(.userCancel))
  }
}

/// The app's sign-in, written against the protocol.
func signIn(with context: BiometricContext, done: @escaping @Sendable (Bool) -> Void) {
  var error: NSError?
  guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
    done(false)
    return
  }
  context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in") {
    success, _ in done(success)
  }
}
