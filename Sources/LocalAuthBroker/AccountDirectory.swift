import LocalAuthProtocol
import Sensors

/// The account database as the broker sees it: names for uids and uids for names. Injected, so the
/// broker does no I/O: the daemon passes `SystemAccounts` (LocalAuthServer: NSS behind a bounded
/// cache). Called on the broker's executor, so an implementation answers from memory or within a
/// bounded time.
public protocol AccountDirectory: Sendable {
  /// The account with this uid, if the database has one.
  func account(uid: UInt32) -> SensorOwner?
  /// The account with this name, if the database has one.
  func account(named name: String) -> SensorOwner?
  /// Whether an answer for `account` is at hand now; when not, a request naming it waits for the
  /// server to look it up (`Broker.accountNeeded(by:from:)`).
  func holdsFreshly(_ account: AccountReference) -> Bool
}

/// The running processes as the broker sees them: who owns one (agent.register with scope
/// `process`). Injected, as `AccountDirectory`; the daemon passes `SystemProcesses`. Called on the
/// broker's executor.
public protocol ProcessDirectory: Sendable {
  /// The uid owning process `pid`, if it runs.
  func owner(ofProcess pid: Int32) -> UInt32?
}

extension AccountDirectory {
  /// The owner with this uid; its name is `uid-N` when the account database has none.
  func owner(uid: UInt32) -> SensorOwner {
    account(uid: uid) ?? .unnamed(uid)
  }

  /// The owner with this account name, if the account exists; names no account can have are refused
  /// without asking the directory.
  func owner(name: String) -> SensorOwner? {
    guard !name.isEmpty, name.utf8.count <= 256, !name.utf8.contains(0) else { return nil }
    return account(named: name)
  }
}

extension SensorOwner {
  /// The owner with a uid the account database has no name for: `uid-N`.
  static func unnamed(_ uid: UInt32) -> SensorOwner { SensorOwner(uid: uid, name: "uid-\(uid)") }
}
