import FoundationEssentials
import LocalAuthCrypto

/// Where the broker keeps what outlives a run: persisted rights and their sealed keys and secrets,
/// handoffs, SSH keys, every owner's state and the enrolment generations.
///
/// The broker does no I/O (docs/hacking.md, "No I/O in the core"): it holds an `any RightsStorage`
/// that the server made (`RightStore`, SQLite) and calls it only on the store worker's thread,
/// never on its executor. Implementations are thread-safe and answer failures as
/// `RightStoreError`.
public protocol RightsStorage: Sendable {
  /// The key of domainState digests, derived from the device key.
  var digestKey: [UInt8] { get }
  /// Where the store keeps its keys (the TPM or files), for status.
  var keyStore: KeyStoreStatus { get }

  // MARK: Rights

  /// Makes a right with a fresh key pair for `owner`, sealing `secret` with it.
  func saveRight(
    owner: Owner, identifier: String, requirement: String, domainStateHash: String?,
    secret: [UInt8]?, maxRightsPerUID: Int
  ) throws -> PersistedRightRecord
  /// The owner's right with this identifier, or nil.
  func right(owner: Owner, identifier: String) throws -> PersistedRightRecord?
  /// Removes the owner's right; false when there was none.
  func removeRight(owner: Owner, identifier: String) throws -> Bool
  /// Removes every right of the owner; how many there were.
  func removeAllRights(owner: Owner) throws -> Int
  /// The right's private key, unsealed (a file-sealed right only; a TPM key never leaves the TPM).
  func privateKey(for record: PersistedRightRecord) throws -> P256PrivateKey
  /// The right's ECDSA signature (DER) of SHA-256(`data`), by the TPM for a TPM-resident key.
  /// Throws `.keyUnavailable` when the key cannot be used here.
  func rightSignature(for record: PersistedRightRecord, of data: [UInt8]) throws -> [UInt8]
  /// The raw ECDH shared secret (the 32-byte x-coordinate) of the right's key with `peer`, by the
  /// TPM (`TPM2_ECDH_ZGen`) for a TPM-resident key. Throws like `rightSignature(for:of:)`.
  func rightSharedSecret(for record: PersistedRightRecord, with peer: P256PublicKey) throws
    -> [UInt8]
  /// The right's secret, unsealed, or nil when it has none.
  func secret(for record: PersistedRightRecord) throws -> [UInt8]?

  // MARK: Handoffs

  /// Stores a handoff; its id.
  func createHandoff(
    uid: UInt32, appID: String, payload: [UInt8], expiresAt: Date, now: Date,
    maxHandoffsPerUID: Int
  ) throws -> String
  /// The uid's handoffs that can still be authorized.
  func pendingHandoffs(uid: UInt32, now: Date) throws -> [HandoffRecord]
  /// The uid's handoff with this id while it lives.
  func liveHandoff(id: String, uid: UInt32, now: Date) throws -> HandoffRecord
  /// Marks the handoff authorized.
  func authorizeHandoff(id: String, uid: UInt32, now: Date) throws
  /// Redeems an authorized handoff once: its payload.
  func redeemHandoff(id: String, uid: UInt32, appID: String?, now: Date) throws -> [UInt8]

  // MARK: SSH keys

  /// Makes an SSH key with a fresh key pair; its reuse window closes on lock unless `keepOnLock`.
  func createSSHKey(
    uid: UInt32, name: String, policy: String, reuseSeconds: Int, keepOnLock: Bool,
    maxKeysPerUID: Int
  ) throws -> SSHKeyRecord
  /// The uid's SSH keys.
  func sshKeys(uid: UInt32) throws -> [SSHKeyRecord]
  /// The uid's SSH key of this name, or nil.
  func sshKey(uid: UInt32, name: String) throws -> SSHKeyRecord?
  /// Deletes the uid's SSH key; false when there was none.
  func deleteSSHKey(uid: UInt32, name: String) throws -> Bool
  /// The SSH key's private key, unsealed (a file-sealed key only; a TPM key never leaves the TPM).
  func sshPrivateKey(for record: SSHKeyRecord) throws -> P256PrivateKey
  /// The SSH key's ECDSA signature (DER) of SHA-256(`data`), by the TPM for a TPM-resident key.
  /// Throws `.keyUnavailable` when the key cannot be used here.
  func sshSignature(for record: SSHKeyRecord, of data: [UInt8]) throws -> [UInt8]
  /// Records when the key last signed.
  func markSSHKeyUsed(uid: UInt32, name: String, at date: Date) throws

  // MARK: Owners and enrolments

  /// Every owner's persisted state.
  func ownerStates() throws -> [OwnerStateRecord]
  /// Saves one owner's state.
  func saveOwnerState(_ record: OwnerStateRecord) throws
  /// Every owner's last observed enrolment generation.
  func enrolmentGenerations() throws -> [EnrolmentGenerationRecord]
  /// Saves one owner's enrolment generation.
  func saveEnrolmentGeneration(_ record: EnrolmentGenerationRecord) throws
}
