import LocalAuthentication

// A protocol an app declares over LAContext so its tests can pass a fake, with a plain reply
// type as the app's authors wrote it, and LAContext's conformance by its own methods. Swift 5
// mode only (a warning, as on a Mac); see BiometricContext+Sendable.swift for Swift 6 mode.

/// What the app needs of a context.
protocol BiometricContext {
  func canEvaluatePolicy(_: LAPolicy, error: NSErrorPointer) -> Bool
  func evaluatePolicy(
    _: LAPolicy, localizedReason: String, reply: @escaping (Bool, Error?) -> Void)
}

extension LAContext: BiometricContext {}

/// A fake for the app's tests.
final class FakeBiometricContext: BiometricContext {
  var answer = true

  func canEvaluatePolicy(_: LAPolicy, error: NSErrorPointer) -> Bool { answer }

  func evaluatePolicy(
    _: LAPolicy, localizedReason: String, reply: @escaping (Bool, Error?) -> Void
  ) {
    reply(answer, answer ? nil : LAError(.userCancel))
  }
}

/// The app's sign-in, written against the protocol.
func signIn(with context: BiometricContext, done: @escaping (Bool) -> Void) {
  var error: NSError?
  guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
    done(false)
    return
  }
  context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in") {
    success, _ in done(success)
  }
}
