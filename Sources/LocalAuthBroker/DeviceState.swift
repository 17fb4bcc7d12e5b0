/// Machine-wide authentication state: the passcode, failure counters, lockout. Broker-isolated.
struct DeviceState {
  var passcode: String?
  /// Consecutive failed biometric matches across all evaluations.
  var consecutiveBiometricFailures = 0
  var biometryLockedOut = false
  /// Consecutive failed passcodes.
  var consecutivePasscodeFailures = 0
  /// No passcode try before this time (the escalating delay).
  var passcodeRetryNotBefore: Duration?

  /// Called after a successful passcode: clears every counter and the lockout.
  mutating func passcodeSucceeded() {
    consecutivePasscodeFailures = 0
    passcodeRetryNotBefore = nil
    consecutiveBiometricFailures = 0
    biometryLockedOut = false
  }
}
