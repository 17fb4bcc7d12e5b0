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
    let now = ContinuousClock.now
    if let entry = cache.withLock({ $0.byUID[uid] }), now - entry.at < freshFor {
      return entry.account
    }
    guard let name = AccountDatabase.name(ofUID: uid) else { return nil }
    let account = SensorOwner(uid: uid, name: name)
    cache.withLock { cache in
      if cache.byUID[uid] == nil && cache.byUID.count >= capacity { cache.byUID.removeAll() }
      cache.byUID[uid] = Entry(account: account, at: now)
    }
    return account
  }

  /// The account with this name (`getpwnam_r`, or the cache).
  public func account(named name: String) -> SensorOwner? {
    let now = ContinuousClock.now
    if let entry = cache.withLock({ $0.byName[name] }), now - entry.at < freshFor {
      return entry.account
    }
    guard let uid = AccountDatabase.uid(ofName: name) else { return nil }
    let account = SensorOwner(uid: uid, name: name)
    cache.withLock { cache in
      if cache.byName[name] == nil && cache.byName.count >= capacity {
        cache.byName.removeAll()
      }
      cache.byName[name] = Entry(account: account, at: now)
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
