import Foundation
import LocalAuthClient

// Apple's "Logging a User into Your App with Face ID or Touch ID": check the policy with an
// NSError pointer, then evaluate with the reply block.

/// Logs the user in with biometrics; `completion` gets whether it worked and what to show.
func logIn(completion: @escaping @Sendable (Bool, String) -> Void) {
  let context = LAContext()
  context.localizedCancelTitle = "Enter Username/Password"

  var error: NSError?
  guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
    completion(false, error?.localizedDescription ?? "Can't evaluate policy")
    return
  }

  let reason = "Log in to your account"
  context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) {
    success, error in
    if success {
      completion(true, "Logged in")
    } else {
      completion(false, error?.localizedDescription ?? "Failed to authenticate")
    }
  }
}

/// The async form, with Apple's error codes (as in "LAError.Code" examples).
func unlockVault(with context: LAContext) async -> String {
  do {
    try await context.evaluatePolicy(
      .deviceOwnerAuthentication, localizedReason: "Unlock the vault")
    return "unlocked"
  } catch let error as LAError {
    switch error.code {
    case .userCancel, .appCancel, .systemCancel: return "cancelled"
    case .biometryLockout: return "locked out"
    case .biometryNotEnrolled, .biometryNotAvailable: return "no biometry"
    default: return error.localizedDescription
    }
  } catch {
    return "unexpected: \(error)"
  }
}

/// A Touch ID-era check still compiles: the deprecated names map to today's codes.
@available(*, deprecated)
func describeLegacy(_ error: NSError) -> String {
  guard error.domain == LAErrorDomain, let code = LAError.Code(rawValue: error.code) else {
    return "not a LocalAuthentication error"
  }
  switch code {
  case .touchIDLockout: return "Touch ID is locked"
  case .touchIDNotEnrolled: return "No fingers enrolled"
  case .touchIDNotAvailable: return "No Touch ID"
  default: return "\(code)"
  }
}
