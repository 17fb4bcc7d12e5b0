import FoundationEssentials
import LocalAuthProtocol
import RightsStorage
import SSHAgent

/// What the broker keeps of the SSH keys signed with since start (docs/rights-and-keys.md, "SSH
/// keys"): each key's record, so a signature reads the store once, and each key's own context,
/// whose reuse grant lets a signature within the key's window pass without a capture. Keyed by
/// uid and name; a key made again under a deleted one's name never inherits its grant. Value
/// type, held by the Broker actor.
struct SSHKeyCache {
  private var records: [String: SSHKeyRecord] = [:]
  private var contexts: [String: AuthContext] = [:]
  private var outcomes: [String: SSHKeyOutcome] = [:]

  /// The cached record of `uid`'s key `name`.
  func record(uid: UInt32, name: String) -> SSHKeyRecord? { records[Self.key(uid, name)] }

  /// Caches a record read from the store.
  mutating func remember(_ record: SSHKeyRecord) {
    records[Self.key(record.uid, record.name)] = record
  }

  /// Notes a signature's use of the key (kept to the minute by the caller).
  mutating func used(uid: UInt32, name: String, at date: Date) {
    records[Self.key(uid, name)]?.lastUsedAt = date
  }

  /// Notes how the key's latest signature ended (since start; `sshKey.list`'s `lastOutcome`).
  mutating func noteOutcome(uid: UInt32, name: String, _ outcome: SSHKeyOutcome) {
    outcomes[Self.key(uid, name)] = outcome
  }

  /// How `uid`'s key `name` last ended a signature since start, if it signed or was refused.
  func lastOutcome(uid: UInt32, name: String) -> SSHKeyOutcome? { outcomes[Self.key(uid, name)] }

  /// Forgets the record of a key whose use failed (it may be gone from the store).
  mutating func forgetRecord(uid: UInt32, name: String) { records[Self.key(uid, name)] = nil }

  /// Forgets a deleted key: its record and its context's reuse grant.
  mutating func forget(uid: UInt32, name: String) {
    let prefix = Self.key(uid, name) + "/"
    contexts = contexts.filter { !$0.key.hasPrefix(prefix) }
    records[Self.key(uid, name)] = nil
    outcomes[Self.key(uid, name)] = nil
  }

  /// The key's context, made on first use; while it is busy, a context of the signature's own
  /// (which may not reuse, and grants nothing to the others).
  mutating func context(for record: SSHKeyRecord, random: any RandomSource) -> AuthContext {
    let fingerprint = SSHPublicKey(x963: record.publicKey.x963).fingerprint
    let key = Self.key(record.uid, record.name) + "/" + fingerprint
    let options = ContextOptions(reuseDuration: Double(record.reuseSeconds))
    if let context = contexts[key] {
      if context.inFlight == nil { return context }
      return AuthContext(
        id: "ctx-" + makeUUID(from: random).lowercased(), options: options, explicit: false)
    }
    let context = AuthContext(
      id: "ctx-" + makeUUID(from: random).lowercased(), options: options, explicit: false)
    contexts[key] = context
    return context
  }

  /// Ends the reuse grants of `uid`'s keys (every uid's when nil), but those of keys that keep
  /// their window on lock; how many were open. A key whose record is not cached closes.
  mutating func closeGrants(of uid: UInt32?) -> Int {
    var closed = 0
    for (key, context) in contexts where context.reuseGrant != nil {
      let parts = key.split(separator: "/", maxSplits: 2)
      guard parts.count == 3, let owner = UInt32(parts[0]), uid == nil || owner == uid else {
        continue
      }
      if records[Self.key(owner, String(parts[1]))]?.keepOnLock == true { continue }
      context.reuseGrant = nil
      closed += 1
    }
    return closed
  }

  private static func key(_ uid: UInt32, _ name: String) -> String { "\(uid)/\(name)" }
}

/// How a key's signature ended: "signed", or the LAError (or other error) name with its
/// `data.reason` when there is one, and when. Value type.
struct SSHKeyOutcome: Equatable {
  /// "signed", or the error's name (passcodeNotSet, userCancel, notInteractive, ...).
  var outcome: String
  /// The error's `data.reason` (noAgent, timeout, ...), if any.
  var reason: String?
  /// When.
  var at: Date
}
