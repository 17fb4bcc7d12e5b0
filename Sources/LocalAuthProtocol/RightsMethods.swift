/// The method names of docs/protocol.md, "Rights and keys" and "Handoffs": rights, the right store,
/// keys, secrets and handoffs.
extension Method {
  /// `right.create {requirement}` → `{right}`
  public static let rightCreate = "right.create"
  /// `right.authorize {right, localizedReason}` → `{state, requestID?, sensor?}`
  public static let rightAuthorize = "right.authorize"
  /// `right.checkCanAuthorize {right}` → `{}` or the LAError
  public static let rightCheckCanAuthorize = "right.checkCanAuthorize"
  /// `right.deauthorize {right}` → `{}`
  public static let rightDeauthorize = "right.deauthorize"
  /// `right.state {right}` → `{state}`
  public static let rightState = "right.state"
  /// `right.release {right}` → `{}`: forgets the handle (an extension: LARight deallocated).
  public static let rightRelease = "right.release"
  /// `rightStore.saveRight {right, identifier, secret?}` → `{right, identifier}`
  public static let rightStoreSave = "rightStore.saveRight"
  /// `rightStore.right {identifier}` → `{right, identifier}`
  public static let rightStoreRight = "rightStore.right"
  /// `rightStore.removeRight {identifier}` or `{right}` → `{}`
  public static let rightStoreRemove = "rightStore.removeRight"
  /// `rightStore.removeAllRights {}` → `{removed}`
  public static let rightStoreRemoveAll = "rightStore.removeAllRights"
  /// `key.publicKey {right}` → `{x963, der}`
  public static let keyPublicKey = "key.publicKey"
  /// `key.sign {right, data, algorithm?}` → `{signature}`
  public static let keySign = "key.sign"
  /// `key.decrypt {right, data, algorithm?}` → `{plaintext}`
  public static let keyDecrypt = "key.decrypt"
  /// `key.exchangeKeys {right, publicKey, algorithm?, requestedSize?, sharedInfo?}` → `{sharedSecret}`
  public static let keyExchangeKeys = "key.exchangeKeys"
  /// `secret.load {right}` → `{secret}`
  public static let secretLoad = "secret.load"
  /// `handoff.create {payload, ttl}` → `{handoff, expiresAt}`
  public static let handoffCreate = "handoff.create"
  /// `handoff.list {}` → `{handoffs: [{handoff, payload, appID, createdAt, expiresAt, authorized}]}`
  public static let handoffList = "handoff.list"
  /// `handoff.authorize {handoff, policy, localizedReason}` → `{handoff, requestID}`
  public static let handoffAuthorize = "handoff.authorize"
  /// `handoff.redeem {handoff}` → `{payload}`
  public static let handoffRedeem = "handoff.redeem"
}

extension Notification {
  /// `right.stateChanged {right, state}` whenever a right's state changes.
  public static let rightStateChanged = "right.stateChanged"
  /// `handoff.stateChanged {handoff, state: "authorized"}` to the creator's app (same uid and app id).
  public static let handoffStateChanged = "handoff.stateChanged"
}

extension ErrorCode {
  /// A persisted right with this identifier already exists (`data.name` is "alreadyExists").
  public static let alreadyExists = ErrorCode(rawValue: -32005)
}

/// The key algorithms of docs/protocol.md, "Key algorithms", spelled as SecKeyAlgorithm names.
public enum KeyAlgorithm {
  /// ECDSA over SHA-256 of the message, DER (X9.62) signature.
  public static let ecdsaSignatureMessageX962SHA256 = "ecdsaSignatureMessageX962SHA256"
  /// Apple's ECIES, X9.63 KDF with SHA-256, AES-GCM with a variable IV.
  public static let eciesStandard = "eciesEncryptionStandardVariableIVX963SHA256AESGCM"
  /// The cofactor variant, identical on P-256.
  public static let eciesCofactor = "eciesEncryptionCofactorVariableIVX963SHA256AESGCM"
  /// Raw ECDH: the 32-byte x-coordinate.
  public static let ecdhStandard = "ecdhKeyExchangeStandard"
  /// Raw cofactor ECDH, identical on P-256.
  public static let ecdhCofactor = "ecdhKeyExchangeCofactor"
  /// ECDH followed by the X9.63 KDF with SHA-256 (`requestedSize`, `sharedInfo`).
  public static let ecdhStandardX963SHA256 = "ecdhKeyExchangeStandardX963SHA256"
  /// The cofactor variant of the above.
  public static let ecdhCofactorX963SHA256 = "ecdhKeyExchangeCofactorX963SHA256"

  /// The signature algorithms `key.sign` supports.
  public static let signing = [ecdsaSignatureMessageX962SHA256]
  /// The encryption algorithms `key.decrypt` supports.
  public static let decryption = [eciesStandard, eciesCofactor]
  /// The key exchange algorithms `key.exchangeKeys` supports.
  public static let keyExchange = [
    ecdhStandard, ecdhCofactor, ecdhStandardX963SHA256, ecdhCofactorX963SHA256,
  ]
}

/// The states of a right (LARight.State) on the wire.
public enum RightStateName {
  /// Not known yet: never authorized on this handle.
  public static let unknown = "unknown"
  /// An authorization is in progress.
  public static let authorizing = "authorizing"
  /// Authorized until deauthorized or the client disconnects.
  public static let authorized = "authorized"
  /// Not authorized: failed, deauthorized, or invalidated by a change of the enrolled set.
  public static let notAuthorized = "notAuthorized"
}
