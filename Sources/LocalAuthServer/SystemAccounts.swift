import LocalAuthBroker
import LocalAuthProtocol
import Sensors
import Synchronization
import SystemFacts

/// How accounts are looked up: NSS (`AccountDatabase`) by default; a test injects a slow one.
public struct AccountLookup: Sendable {
  /// The name of the account with this uid, if there is one; may block.
  public var nameOfUID: @Sendable (UInt32) -> String?
  /// The uid of the account with this name, if there is one; may block.
  public var uidOfName: @Sendable (String) -> UInt32?

  /// A lookup from two functions.
  public init(
    nameOfUID: @escaping @Sendable (UInt32) -> String?,
    uidOfName: @escaping @Sendable (String) -> UInt32?
  ) {
    self.nameOfUID = nameOfUID
    self.uidOfName = uidOfName
  }

  /// The system's account database (NSS: may block as long as LDAP or sssd do).
  public static let system = AccountLookup(
    nameOfUID: { AccountDatabase.name(ofUID: $0) }, uidOfName: { AccountDatabase.uid(ofName: $0) })
}

/// The daemon's account directory: the system's account database (NSS) behind a bounded cache, so a
/// busy broker asks NSS about one account at most once per `freshFor`. Thread-safe (a `Mutex`).
///
/// Only accounts found are kept (an account created a moment ago is seen at once); each is kept for
/// `freshFor` (an account renamed or removed is seen within it). At `capacity` names or uids the
/// stale entries go, and all of them when none is stale: a client naming many accounts costs
/// lookups, never memory.
///
/// As an `AccountDirectory` it looks up what it does not hold (tests, tools). The daemon's broker
/// gets `cacheOnly`, which never does: the server resolves what a connection or request needs off
/// the loop first (`AccountResolver`).
public final class SystemAccounts: AccountDirectory {
  /// How long an answer is used before NSS is asked again (10 s by default).
  public let freshFor: Duration
  /// The most uids, and the most names, kept (1024 by default).
  public let capacity: Int
  private let lookUp: AccountLookup

  fileprivate struct Entry {
    var account: SensorOwner
    var at: ContinuousClock.Instant
  }

  fileprivate struct Cache {
    var byUID: [UInt32: Entry] = [:]
    var byName: [String: Entry] = [:]
  }

  private let cache = Mutex(Cache())

  /// A directory with an empty cache.
  public init(
    capacity: Int = 1024, freshFor: Duration = .seconds(10), lookUp: AccountLookup = .system
  ) {
    self.capacity = max(1, capacity)
    self.freshFor = freshFor
    self.lookUp = lookUp
  }

  /// The account with this uid (`getpwuid_r`, or the cache).
  public func account(uid: UInt32) -> SensorOwner? {
    cached(uid, in: \.byUID) {
      lookUp.nameOfUID(uid).map { SensorOwner(uid: uid, name: $0) }
    }
  }

  /// The account with this name (`getpwnam_r`, or the cache).
  public func account(named name: String) -> SensorOwner? {
    cached(name, in: \.byName) {
      lookUp.uidOfName(name).map { SensorOwner(uid: $0, name: name) }
    }
  }

  /// Looks `key` up when the cache has no fresh answer (blocks on NSS: never on the loop).
  public func resolve(_ key: AccountReference) {
    switch key {
    case .uid(let uid): _ = account(uid: uid)
    case .name(let name): _ = account(named: name)
    }
  }

  /// Whether the cache has a fresh answer for `key` (nothing is looked up).
  public func holdsFreshly(_ key: AccountReference) -> Bool {
    let now = ContinuousClock.now
    let entry: Entry? = cache.withLock { cache in
      switch key {
      case .uid(let uid): cache.byUID[uid]
      case .name(let name): cache.byName[name]
      }
    }
    return entry.map { now - $0.at < freshFor } ?? false
  }

  /// The directory's cache alone, fresh or stale answers alike: what the broker on the loop reads.
  public var cacheOnly: CachedAccounts { CachedAccounts(accounts: self) }

  /// The cached answer for `key`, fresh or stale; nil when there is none.
  fileprivate func held<Key: Hashable>(_ key: Key, in table: KeyPath<Cache, [Key: Entry]>)
    -> SensorOwner?
  {
    cache.withLock { $0[keyPath: table][key]?.account }
  }

  /// The fresh cached answer for `key`, or `lookUp`'s, kept when it found an account.
  private func cached<Key: Hashable>(
    _ key: Key, in table: WritableKeyPath<Cache, [Key: Entry]>, lookUp: () -> SensorOwner?
  ) -> SensorOwner? {
    let now = ContinuousClock.now
    if let entry = cache.withLock({ $0[keyPath: table][key] }), now - entry.at < freshFor {
      return entry.account
    }
    guard let account = lookUp() else {
      // Removed or renamed: its stale answer must not be read again (the name may be reused).
      cache.withLock { _ = $0[keyPath: table].removeValue(forKey: key) }
      return nil
    }
    let (capacity, freshFor) = (self.capacity, self.freshFor)
    cache.withLock { cache in
      if cache[keyPath: table][key] == nil && cache[keyPath: table].count >= capacity {
        cache[keyPath: table] = cache[keyPath: table].filter { now - $0.value.at < freshFor }
        if cache[keyPath: table].count >= capacity { cache[keyPath: table].removeAll() }
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

/// A `SystemAccounts` cache as the broker reads it on the loop: answers held, fresh or stale, and
/// never a lookup (a miss is "no such account"). Thread-safe.
public struct CachedAccounts: AccountDirectory {
  let accounts: SystemAccounts

  /// The cached account with this uid.
  public func account(uid: UInt32) -> SensorOwner? { accounts.held(uid, in: \.byUID) }

  /// The cached account with this name.
  public func account(named name: String) -> SensorOwner? { accounts.held(name, in: \.byName) }

  /// Whether the cache holds a fresh answer for `account`.
  public func holdsFreshly(_ account: AccountReference) -> Bool { accounts.holdsFreshly(account) }
}

/// The daemon's process directory: `/proc`, read when asked (agent.register with scope `process`,
/// at most once per registration). Thread-safe (no state).
public struct SystemProcesses: ProcessDirectory {
  /// The directory.
  public init() {}

  /// The uid owning process `pid` (stat(2) of `/proc/PID`).
  public func owner(ofProcess pid: Int32) -> UInt32? { ProcessFacts.owner(of: pid) }
}
