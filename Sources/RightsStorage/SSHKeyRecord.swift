import FoundationEssentials
import LocalAuthCrypto

/// The public facts of one SSH key of a user; its private key stays sealed in the store and is
/// never given out (it signs in the daemon, after an evaluation).
public struct SSHKeyRecord: Sendable, Equatable {
  /// The key's name, unique per uid (the comment of its public key line).
  public var name: String
  /// The owning user's uid.
  public var uid: UInt32
  /// Which presence a signature needs: "biometrics" or "any" (biometrics or the passcode).
  public var policy: String
  /// How long after a biometric match a further signature needs none, in seconds (0: never).
  public var reuseSeconds: Int
  /// Whether its reuse window outlives a lock of the session, a suspend and a logout (default:
  /// they close it).
  public var keepOnLock = false
  /// The public half of the key.
  public var publicKey: P256PublicKey
  /// When the key was made.
  public var createdAt: Date
  /// When it last signed, if ever.
  public var lastUsedAt: Date? = nil
  /// Where its private key lives: inside the TPM, or sealed in the store.
  public var residence: KeyResidence = .file

  /// A record of these fields (the store makes them; tests and tools may too).
  public init(
    name: String, uid: UInt32, policy: String, reuseSeconds: Int, publicKey: P256PublicKey,
    createdAt: Date, lastUsedAt: Date? = nil, residence: KeyResidence = .file,
    keepOnLock: Bool = false
  ) {
    self.keepOnLock = keepOnLock
    self.residence = residence
    self.name = name
    self.uid = uid
    self.policy = policy
    self.reuseSeconds = reuseSeconds
    self.publicKey = publicKey
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
  }
}
