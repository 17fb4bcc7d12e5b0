import LocalAuthentication

// A lock-screen view model: it takes a context factory so its unit tests pass a test double.

@MainActor
final class LockScreenViewModel {
  enum State: Equatable {
    case locked
    case unlocking
    case unlocked
    case failed(String)
  }

  private(set) var state: State = .locked
  private(set) var biometryIcon = "lock"
  private let makeContext: () -> LAContext

  init(makeContext: @escaping () -> LAContext = { LAContext() }) {
    self.makeContext = makeContext
  }

  func prepare() {
    let context = makeContext()
    var error: NSError?
    guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
      if let laError = error as? LAError, laError.code == .biometryNotEnrolled {
        biometryIcon = "lock"
      }
      return
    }
    biometryIcon = context.biometryType == .faceID ? "faceid" : "touchid"
  }

  func unlock() async {
    state = .unlocking
    let context = makeContext()
    context.localizedCancelTitle = "Enter Passcode"
    do {
      let success = try await context.evaluatePolicy(
        .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your notes")
      state = success ? .unlocked : .locked
    } catch let error as LAError where error.code == .userCancel || error.code == .appCancel {
      state = .locked
    } catch {
      state = .failed(error.localizedDescription)
    }
  }

  func lock() { state = .locked }
}
