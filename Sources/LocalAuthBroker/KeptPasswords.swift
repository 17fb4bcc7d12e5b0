import LocalAuthCrypto
import Sensors

/// What keeping login passwords needs from the daemon: the helper that checks a password before it
/// is kept, and the boot-only sealer (its key in locked memory excluded from core dumps).
public struct KeptPasswordServices: Sendable {
  /// Checks a password against the account's (localauthd-password-helper).
  public let checker: any PasswordChecker
  /// Seals kept passwords for this process's life.
  public let sealer: BootSealer
  /// Services over these parts.
  public init(checker: any PasswordChecker, sealer: BootSealer) {
    self.checker = checker
    self.sealer = sealer
  }
}

/// The login passwords kept for this boot, sealed, one per uid, and the checks in flight. Owns its
/// state; the broker calls it on its executor. Value type (its entries are references to locked
/// memory, wiped when dropped).
struct KeptPasswords {
  /// The most uids a password is kept for.
  static let maxEntries = 256
  /// How long after a login's evaluation succeeded by presence its password may be released.
  static let releaseWindow = Duration.seconds(30)

  /// One kept password.
  struct Entry {
    /// The sealed bytes (locked memory, bound to the uid by the AAD).
    let sealed: LockedSecret
    /// When it was kept (the broker's clock).
    let keptAt: Duration
  }

  /// The services, once the daemon gives them; nil: nothing can be kept.
  var services: KeptPasswordServices?
  private(set) var entries: [UInt32: Entry] = [:]
  /// The uids with a keep being checked.
  private(set) var checking: Set<UInt32> = []

  /// How many uids have a password kept.
  var count: Int { entries.count }

  /// The AAD that binds a sealed password to its uid.
  static func binding(_ uid: UInt32) -> [UInt8] {
    Array("localauthd login password uid \(uid)".utf8)
  }

  /// Starts a check for `uid`; false when one is in flight.
  mutating func beginCheck(_ uid: UInt32) -> Bool { checking.insert(uid).inserted }

  /// Ends `uid`'s check.
  mutating func endCheck(_ uid: UInt32) { checking.remove(uid) }

  /// Whether `uid`'s password fits (a uid already kept always does: it is replaced).
  func hasRoom(for uid: UInt32) -> Bool {
    entries[uid] != nil || entries.count + checking.count < Self.maxEntries
  }

  /// Keeps `sealed` for `uid`, replacing (and wiping) an older one.
  mutating func keep(_ sealed: LockedSecret, uid: UInt32, at now: Duration) {
    entries[uid]?.sealed.wipe()
    entries[uid] = Entry(sealed: sealed, keptAt: now)
  }

  /// `uid`'s entry, if kept.
  func entry(_ uid: UInt32) -> Entry? { entries[uid] }

  /// Drops `uid`'s password; whether one was kept.
  @discardableResult
  mutating func drop(_ uid: UInt32) -> Bool {
    guard let entry = entries.removeValue(forKey: uid) else { return false }
    entry.sealed.wipe()
    return true
  }

  /// Drops every password kept `maxAge` ago or longer; the uids dropped.
  mutating func dropExpired(now: Duration, maxAge: Duration) -> [UInt32] {
    let expired = entries.filter { now - $0.value.keptAt >= maxAge }.map(\.key).sorted()
    for uid in expired { drop(uid) }
    return expired
  }
}

/// A system evaluation that succeeded by presence (a biometric sensor, not reused) on a
/// connection: what a password release checks.
struct PresenceProof: Equatable {
  /// The evaluation's id.
  let requestID: String
  /// The owner it proved present.
  let uid: UInt32
  /// Who asked for it (the PAM caller's real uid: 0 for login and a display manager).
  let requester: UInt32
  /// When it ended (the broker's clock).
  let at: Duration
}
