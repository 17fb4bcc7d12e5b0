/// What checking a login password found.
public enum PasswordCheck: Sendable, Equatable {
  /// The password is the account's.
  case right
  /// It is not (or the account may not log in now: locked, expired, or pam_faillock's lock).
  case wrong
  /// Nothing was checked: the helper could not be reached or refused the request. Not a guess.
  case unavailable
}

/// Checks an account's login password (docs/owners-and-agents.md, "The login password"). Injected into
/// a `PasswordSensor`: the daemon's implementation asks localauthd-password-helper over its socket;
/// tests pass a fake. Each call is one check; the implementation does its own waiting off the caller's
/// thread.
///
/// Implementation requirements:
/// - `check` never keeps the password: every buffer it copied it into is wiped before it returns.
/// - Neither call ever logs the password; both end within a bounded time.
/// - Never called for a system evaluation (sudo, su, polkit): those stay biometric-only.
public protocol PasswordChecker: Sendable {
  /// Whether `uid`'s account has a password that can be typed (not locked, not empty); nil when that
  /// could not be asked.
  nonisolated(nonsending) func hasUsablePassword(uid: UInt32) async -> Bool?
  /// Whether `password` (its UTF-8 bytes) is `uid`'s login password.
  nonisolated(nonsending) func check(_ password: [UInt8], uid: UInt32) async -> PasswordCheck
}

/// A passcode-stage sensor whose secret is the owner's login password rather than localauthd's own
/// passcode: the broker judges a guess typed on it with `checkPassword`, never against the stored
/// passcode, and tells agents to ask for a "Password".
public protocol LoginPasswordSensor: SensorDriver {
  /// One check of `password` against `owner`'s login password.
  nonisolated(nonsending) func checkPassword(_ password: String, owner: SensorOwner) async
    -> PasswordCheck
}
