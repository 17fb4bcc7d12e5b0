import FoundationEssentials
import LocalAuthCrypto

/// The public facts of one persisted right (LAPersistedRight); its private key and secret stay sealed in the store.
public struct PersistedRightRecord: Sendable, Equatable {
  /// The identifier the owner saved the right under.
  public var identifier: String
  /// Who the right belongs to.
  public var owner: Owner
  /// The authentication requirement (for example `default`, `biometry`, `biometryCurrentSet`).
  public var requirement: String
  /// The biometric domain state hash when saved, for biometryCurrentSet rights; nil otherwise.
  public var domainStateHash: String?
  /// The public half of the right's P-256 key.
  public var publicKey: P256PublicKey
  /// When the right was saved (millisecond precision).
  public var createdAt: Date
  /// Where its private key lives: made inside the TPM, or sealed in the store.
  public var residence: KeyResidence = .file

  /// A record of these fields (the store makes them; tests and tools may too).
  public init(
    identifier: String, owner: Owner, requirement: String, domainStateHash: String?,
    publicKey: P256PublicKey, createdAt: Date, residence: KeyResidence = .file
  ) {
    self.residence = residence
    self.identifier = identifier
    self.owner = owner
    self.requirement = requirement
    self.domainStateHash = domainStateHash
    self.publicKey = publicKey
    self.createdAt = createdAt
  }
}
