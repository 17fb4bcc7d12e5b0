import LocalAuthConcurrency
import Sensors

/// A `PasswordChecker` for tests: each uid's password (nil: none usable), every check it was asked,
/// and whether it is reachable at all. Thread-safe.
public final class FakePasswordChecker: PasswordChecker {
  private struct State {
    var passwords: [UInt32: [UInt8]] = [:]
    var checks: [(uid: UInt32, password: [UInt8])] = []
    var reachable = true
  }
  private let state = StateLock(State())

  /// A checker knowing `passwords` (uid → password).
  public init(_ passwords: [UInt32: String] = [:]) {
    state.withLock { $0.passwords = passwords.mapValues { Array($0.utf8) } }
  }

  /// Sets (nil: removes) `uid`'s password.
  public func setPassword(_ password: String?, uid: UInt32) {
    state.withLock { $0.passwords[uid] = password.map { Array($0.utf8) } }
  }

  /// Whether the checker answers (false: every question is `.unavailable` / nil).
  public func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }

  /// The checks asked so far: uid and the password as text.
  public var checks: [(uid: UInt32, password: String)] {
    state.withLock { $0.checks.map { ($0.uid, String(decoding: $0.password, as: UTF8.self)) } }
  }

  /// Whether `uid` has a password (nil when unreachable).
  public nonisolated(nonsending) func hasUsablePassword(uid: UInt32) async -> Bool? {
    state.withLock { $0.reachable ? $0.passwords[uid] != nil : nil }
  }

  /// Right when `password` is `uid`'s; recorded.
  public nonisolated(nonsending) func check(_ password: [UInt8], uid: UInt32) async
    -> PasswordCheck
  {
    state.withLock { state in
      guard state.reachable else { return .unavailable }
      state.checks.append((uid, password))
      return state.passwords[uid] == password ? .right : .wrong
    }
  }
}
