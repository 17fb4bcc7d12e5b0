/// Why a rights-store operation failed.
public enum RightStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No such right or handoff for this owner (another owner's entry looks exactly the same).
  case notFound
  /// A right with this identifier already exists for this owner.
  case alreadyExists
  /// The handoff's expiry time has passed.
  case expired
  /// The handoff has not been authorized yet.
  case notAuthorized
  /// The handoff was already redeemed; it can be redeemed only once.
  case alreadyRedeemed
  /// Stored data is damaged, tampered with, or sealed under another device key.
  case corrupt(String)
  /// SQLite returned an error: its extended result code and message.
  case sqlite(code: Int32, message: String)
  /// A cryptographic operation failed.
  case crypto(String)
  /// The device key file is missing, unreadable, the wrong size, or readable by others.
  case deviceKey(String)
  /// The device key file is gone while rows sealed under it remain: refused rather than replaced.
  case deviceKeyMissing(String)
  /// The state directory is owned by another user or writable by group or others.
  case unsafeStateDirectory(String)
  /// A per-uid limit the caller passed is reached: which one and its value.
  case limitReached(StoreQuota, Int)
  /// The key exists but cannot be used here: sealed to another TPM, its TPM gone or refusing.
  case keyUnavailable(String)
  /// An argument the store cannot accept (for example an empty identifier or an over-long app ID).
  case invalidArgument(String)

  /// A human-readable explanation of the failure.
  public var description: String {
    switch self {
    case .notFound: return "not found"
    case .alreadyExists: return "a right with this identifier already exists"
    case .expired: return "the handoff has expired"
    case .notAuthorized: return "the handoff has not been authorized"
    case .alreadyRedeemed: return "the handoff was already redeemed"
    case .corrupt(let detail): return "corrupt store: \(detail)"
    case .sqlite(let code, let message): return "SQLite error \(code): \(message)"
    case .crypto(let detail): return "crypto failure: \(detail)"
    case .deviceKey(let detail): return "device key: \(detail)"
    case .deviceKeyMissing(let detail): return "device key missing: \(detail)"
    case .unsafeStateDirectory(let detail): return "unsafe state directory: \(detail)"
    case .limitReached(let quota, let limit): return "\(quota.rawValue) limit (\(limit)) reached"
    case .keyUnavailable(let detail): return "key unavailable: \(detail)"
    case .invalidArgument(let detail): return "invalid argument: \(detail)"
    }
  }
}

/// A per-uid count the store enforces when asked to.
public enum StoreQuota: String, Sendable, Equatable {
  /// Saved rights of one uid, over all its apps.
  case savedRightsPerUID
  /// Handoffs of one uid that are pending or expired moments ago.
  case handoffsPerUID
  /// SSH keys of one uid.
  case sshKeysPerUID
}

extension RightStoreError {
  /// Whether the error says the database file itself is damaged (SQLITE_CORRUPT, SQLITE_NOTADB, or a row or
  /// schema that does not read back), as opposed to a refusal or a passing I/O failure.
  public var isCorruption: Bool {
    switch self {
    case .corrupt: return true
    case .sqlite(let code, _): return code & 0xff == 11 || code & 0xff == 26
    default: return false
    }
  }
}
