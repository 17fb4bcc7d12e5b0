import FoundationEssentials
import LocalAuthCrypto

/// One owner's (Linux account's) persisted authentication state: failure counters, lockout, the passcode back-off
/// and the passcode's salted slow hash. Never the passcode itself.
public struct OwnerStateRecord: Sendable, Equatable {
  /// The owner's uid.
  public var uid: UInt32
  /// Consecutive failed biometric matches.
  public var biometricFailures: Int
  /// Whether biometry is locked out.
  public var biometryLockedOut: Bool
  /// Consecutive failed passcodes.
  public var passcodeFailures: Int
  /// No passcode try before this wall-clock time (milliseconds since 1970), if a back-off is running.
  public var passcodeRetryNotBeforeMilliseconds: Int64?
  /// The passcode's hash, nil when no passcode is set.
  public var passcode: PasscodeHash?

  /// A record.
  public init(
    uid: UInt32, biometricFailures: Int = 0, biometryLockedOut: Bool = false,
    passcodeFailures: Int = 0, passcodeRetryNotBeforeMilliseconds: Int64? = nil,
    passcode: PasscodeHash? = nil
  ) {
    self.uid = uid
    self.biometricFailures = biometricFailures
    self.biometryLockedOut = biometryLockedOut
    self.passcodeFailures = passcodeFailures
    self.passcodeRetryNotBeforeMilliseconds = passcodeRetryNotBeforeMilliseconds
    self.passcode = passcode
  }
}
