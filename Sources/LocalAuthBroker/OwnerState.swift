import LocalAuthCrypto

/// One owner's authentication state: the passcode's hash, failure counters, lockout and the passcode
/// back-off. Every Linux account is an owner (or, in device mode, one owner stands for all). Broker-isolated.
struct OwnerState: Equatable {
  /// The owner's uid.
  let uid: UInt32
  /// The passcode; nil when none is set.
  var passcode: OwnerPasscode?
  /// Consecutive failed biometric matches across this owner's evaluations.
  var consecutiveBiometricFailures = 0
  var biometryLockedOut = false
  /// Consecutive failed passcodes.
  var consecutivePasscodeFailures = 0
  /// No passcode try before this time (the escalating delay), on the broker's clock.
  var passcodeRetryNotBefore: Duration?

  init(uid: UInt32) { self.uid = uid }

  /// Whether a passcode is set and whether biometry is locked out (`OwnerBook.standing`).
  var standing: (hasPasscode: Bool, biometryLockedOut: Bool) {
    (passcode != nil, biometryLockedOut)
  }

  /// Called after a successful passcode: clears every counter and the lockout.
  mutating func passcodeSucceeded() {
    consecutivePasscodeFailures = 0
    passcodeRetryNotBefore = nil
    consecutiveBiometricFailures = 0
    biometryLockedOut = false
  }
}

/// An owner's passcode: a salted slow hash (set at run time, kept in the store), or the `Passcode=` of the
/// configuration (a simulation aid: it is in the configuration file in plain text already, so the daemon
/// compares it in constant time from memory and never writes it to the store). Indirect: an
/// `OwnerState` is copied whenever it is read (canEvaluatePolicy reads one), and a boxed passcode
/// makes that one retain.
indirect enum OwnerPasscode: Equatable {
  case hashed(PasscodeHash)
  case configured([UInt8])

  /// The hash to store; nil for a configured passcode.
  var storedHash: PasscodeHash? {
    if case .hashed(let hash) = self { return hash }
    return nil
  }
}

/// Whether every Linux account is an owner of its own, or one owner stands for every uid.
public enum OwnerMode: String, Sendable {
  /// Every account is an owner: its own enrollments, passcode, counters and lockout (the default).
  case perUser = "user"
  /// One owner, as on a phone: every uid asks for the same person's presence (`BrokerConfiguration.setupOwner`).
  case device
}
