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
    case .invalidArgument(let detail): return "invalid argument: \(detail)"
    }
  }
}
