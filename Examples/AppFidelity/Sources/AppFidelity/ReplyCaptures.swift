import LocalAuthentication

// A non-Sendable class that captures `self` and its completion handler in the reply block, as
// most apps' pre-concurrency code does. Apple's reply is imported from Objective-C as
// `@preconcurrency`, so in Swift 6 mode this is a warning on a Mac, not an error; the same here.

/// An unlock controller with mutable state and no Sendable conformance.
final class UnlockController {
  private(set) var isUnlocked = false
  private(set) var lastError: Error?
  private let context = LAContext()

  /// Evaluates and records the outcome on `self` from the reply block.
  func unlock(completion: @escaping () -> Void) {
    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock the vault") {
      success, error in
      self.isUnlocked = success
      self.lastError = error
      completion()
    }
  }
}
