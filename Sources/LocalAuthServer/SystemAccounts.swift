import LocalAuthBroker
import Sensors
import Synchronization
import SystemFacts

/// The daemon's account directory: the system's account database (NSS) behind a bounded cache, so a
/// busy broker asks NSS about one account at most once per `freshFor`. Thread-safe (a `Mutex`).
///
/// Only accounts found are kept (an account created a moment ago is seen at once); each is kept for
/// `freshFor` (an account renamed or removed is seen within it). At `capacity` names or uids the
/// cache starts over: a client naming many accounts costs lookups, never memory.
public final class SystemAccounts: AccountDirectory {
  /// How long an answer is used before NSS is asked again (10 s by default).
  public let freshFor: Duration
  /// The most uids, and the most names, kept (1024 by default).
  public let capacity: Int

  private struct Entry {
    var account: SensorOwner
    var at: ContinuousClock.Instant
  }

  private struct Cache {
    var byUID: [UInt32: Entry] = [:]
    var byName: [String: Entry] = [:]
  }

  private let cache = Mutex(Cache())

  /// A directory with an empty cache.
  public init(capacity: Int = 1024, freshFor: Duration = .seconds(10)) {
    self.capacity = max(1, capacity)
    self.freshFor = freshFor
  }

  /// The account with this uid (`getpwuid_r`, or the cache).
  public func account(uid: UInt32) -> SensorOwner? {
    cached(uid, in: \.byUID) {
      AccountDatabase.name(ofUID: uid).map { SensorOwner(uid: uid, name: $0) }
    }
  }

  /// The account with this name (`getpwnam_r`, or the cache).
  public func account(named name: String) -> SensorOwner? {
    cached(name, in: \.byName) {
      AccountDatabase.uid(ofName: name).map { SensorOwner(uid: $0, name: name) }
    }
  }

  /// The fresh cached answer for `key`, or `lookUp`'s, kept when it found an account.
  private func cached<Key: Hashable>(
    _ key: Key, in table: WritableKeyPath<Cache, [Key: Entry]>, lookUp: () -> SensorOwner?
  ) -> SensorOwner? {
    let now = ContinuousClock.now
    if let entry = cache.withLock({ $0[keyPath: table][key] }), now - entry.at < freshFor {
      return entry.account
    }
    guard let account = lookUp() else { return nil }
    cache.withLock { cache in
      if cache[keyPath: table][key] == nil && cache[keyPath: table].count >= capacity {
        cache[keyPath: table].removeAll()
      }
      cache[keyPath: table][key] = Entry(account: account, at: now)
    }
    return account
  }

  /// How many uids and names are cached now (tests of the bound).
  public var cachedCount: (uids: Int, names: Int) {
    cache.withLock { ($0.byUID.count, $0.byName.count) }
  }
}

/// The daemon's process directory: `/proc`, read when asked (agent.register with scope `process`,
/// at most once per registration). Thread-safe (no state).
public struct SystemProcesses: ProcessDirectory {
  /// The directory.
  public init() {}

  /// The uid owning process `pid` (stat(2) of `/proc/PID`).
  public func owner(ofProcess pid: Int32) -> UInt32? { ProcessFacts.owner(of: pid) }
}
