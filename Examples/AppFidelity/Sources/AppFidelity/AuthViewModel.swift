import LocalAuthentication

// A SwiftUI-style view model (the @Published properties become plain ones: no Combine here),
// isolated to the main actor, with both the async and the reply-block evaluation.

@MainActor
final class AuthViewModel {
  var isUnlocked = false
  var errorMessage: String?
  var biometryName = ""

  func checkBiometry() {
    let context = LAContext()
    var error: NSError?
    if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
      switch context.biometryType {
      case .faceID: biometryName = "Face ID"
      case .touchID: biometryName = "Touch ID"
      case .opticID: biometryName = "Optic ID"
      default: biometryName = ""
      }
    } else {
      errorMessage = error?.localizedDescription
    }
  }

  func authenticate() async {
    let context = LAContext()
    context.localizedCancelTitle = "Cancel"
    context.localizedFallbackTitle = "Use Passcode"
    do {
      isUnlocked = try await context.evaluatePolicy(
        .deviceOwnerAuthentication, localizedReason: "Sign in to your account")
      errorMessage = nil
    } catch let error as LAError {
      isUnlocked = false
      errorMessage = error.code == .userCancel ? nil : error.localizedDescription
    } catch {
      isUnlocked = false
      errorMessage = error.localizedDescription
    }
  }

  /// The reply-block form, hopping back to the main queue as apps do.
  func authenticateWithReply(done: @escaping @MainActor @Sendable () -> Void) {
    let context = LAContext()
    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in") {
      success, error in
      DispatchQueue.main.async {
        self.isUnlocked = success
        self.errorMessage = error?.localizedDescription
        done()
      }
    }
  }
}
