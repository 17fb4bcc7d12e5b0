import Foundation
import LocalAuthClient

// Apple's LARight overview (WWDC22 "Streamline local authorization flows"): one right for the
// app's login, checked, authorized, and given up on logout.

/// The app's login state, built around one LARight.
final class LoginManager: Sendable {
  private let loginRight = LARight()

  /// Whether the user could log in now, without a prompt.
  func canLogIn() async -> Bool {
    do {
      try await loginRight.checkCanAuthorize()
      return true
    } catch {
      return false
    }
  }

  /// Logs in: authorizes the right.
  func logIn() async throws {
    try await loginRight.authorize(localizedReason: "Access sandcastle competition designs")
  }

  /// Logs out: deauthorizes the right (this never fails).
  func logOut() async {
    await loginRight.deauthorize()
  }

  /// Whether the user is logged in.
  var isLoggedIn: Bool { loginRight.state == .authorized }
}

/// A right that allows biometry with the passcode as a fallback, using the completion forms.
func authorizeWithFallback(completion: @escaping @Sendable (Error?) -> Void) {
  let right = LARight(requirement: .biometry(fallback: .devicePasscode))
  right.authorize(localizedReason: "Confirm the transfer", completion: completion)
}
