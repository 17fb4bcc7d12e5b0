// The requests of docs/protocol.md, "Rights and keys" and "Handoffs": rights, the right store,
// keys, secrets and handoffs. The right.* params are typed field by field; the others are not
// yet (`KeyedParams`).

/// The params every method on one of the caller's rights shares: `right`, the handle
/// `right.create` or the right store gave.
public protocol RightParams: MethodParams {}

extension RightParams {
  /// `right`, required, not empty.
  public func right() throws(RPCError) -> String { try reader.nonEmptyString("right") }
}

/// The params of a method that takes only a right: `{right}`.
public struct RightHandleParams: RightParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params naming the right with this handle.
  public init(right: JSONValue) { object = ["right": right] }
}

/// `right.create {requirement}` → `{right}`
public enum RightCreateRequest: RequestType {
  /// `right.create`
  public static let method = "right.create"
  /// The result object.
  public typealias Result = JSONValue

  /// `{requirement, fallback?}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a right with the requirement of this name ("default", "biometry",
    /// "biometryCurrentSet") and fallback ("devicePasscode", "none"; nil: none given).
    public init(requirement: String, fallback: String?) {
      object = ["requirement": .string(requirement), "fallback": fallback.map(JSONValue.string)]
    }
    /// `requirement`, required: a name, `{name: options}` or `{name, fallback?}`; its shapes
    /// are checked by the broker's `RightRequirement`.
    public func requirement() throws(RPCError) -> JSONValue {
      guard let value = object["requirement"] else {
        throw .invalidParams("requirement", "is required")
      }
      return value
    }
    /// `fallback`, optional (beside a requirement given by name).
    public func fallback() throws(RPCError) -> String? { try reader.optionalString("fallback") }
  }
}

/// `right.authorize {right, localizedReason}` → `{state, requestID?, sensor?}`
public enum RightAuthorizeRequest: RequestType {
  /// `right.authorize`
  public static let method = "right.authorize"
  /// The result object.
  public typealias Result = JSONValue

  /// `{right, localizedReason}`.
  public struct Params: RightParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that authorize the right with this handle, prompting with `localizedReason`.
    public init(right: JSONValue, localizedReason: String) {
      object = ["right": right, "localizedReason": .string(localizedReason)]
    }
    /// `localizedReason`, required, not empty.
    public func localizedReason() throws(RPCError) -> String {
      try reader.nonEmptyString("localizedReason")
    }
  }
}

/// `right.checkCanAuthorize {right}` → `{}` or the LAError
public enum RightCheckCanAuthorizeRequest: RequestType {
  /// `right.checkCanAuthorize`
  public static let method = "right.checkCanAuthorize"
  /// The result object.
  public typealias Result = JSONValue
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.deauthorize {right}` → `{}`
public enum RightDeauthorizeRequest: RequestType {
  /// `right.deauthorize`
  public static let method = "right.deauthorize"
  /// The result object.
  public typealias Result = JSONValue
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.state {right}` → `{state}`
public enum RightStateRequest: RequestType {
  /// `right.state`
  public static let method = "right.state"
  /// The result object.
  public typealias Result = JSONValue
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.release {right}` → `{}`: forgets the handle (an extension: LARight deallocated).
public enum RightReleaseRequest: RequestType {
  /// `right.release`
  public static let method = "right.release"
  /// The result object.
  public typealias Result = JSONValue
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `rightStore.saveRight {right, identifier, secret?}` → `{right, identifier}`
public enum SaveRightRequest: RequestType {
  /// `rightStore.saveRight`
  public static let method = "rightStore.saveRight"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `rightStore.right {identifier}` → `{right, identifier}`
public enum LoadRightRequest: RequestType {
  /// `rightStore.right`
  public static let method = "rightStore.right"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `rightStore.removeRight {identifier}` or `{right}` → `{}`
public enum RemoveRightRequest: RequestType {
  /// `rightStore.removeRight`
  public static let method = "rightStore.removeRight"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `rightStore.removeAllRights {}` → `{removed}`
public enum RemoveAllRightsRequest: RequestType {
  /// `rightStore.removeAllRights`
  public static let method = "rightStore.removeAllRights"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `key.publicKey {right}` → `{x963, der}`
public enum PublicKeyRequest: RequestType {
  /// `key.publicKey`
  public static let method = "key.publicKey"
  /// The result object.
  public typealias Result = JSONValue
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `key.sign {right, data, algorithm?}` → `{signature}`
public enum KeySignRequest: RequestType {
  /// `key.sign`
  public static let method = "key.sign"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `key.decrypt {right, data, algorithm?}` → `{plaintext}`
public enum KeyDecryptRequest: RequestType {
  /// `key.decrypt`
  public static let method = "key.decrypt"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `key.exchangeKeys {right, publicKey, algorithm?, requestedSize?, sharedInfo?}` → `{sharedSecret}`
public enum KeyExchangeRequest: RequestType {
  /// `key.exchangeKeys`
  public static let method = "key.exchangeKeys"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `secret.load {right}` → `{secret}`
public enum SecretLoadRequest: RequestType {
  /// `secret.load`
  public static let method = "secret.load"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `handoff.create {payload, ttl}` → `{handoff, expiresAt}`
public enum HandoffCreateRequest: RequestType {
  /// `handoff.create`
  public static let method = "handoff.create"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `handoff.list {}` → `{handoffs: [{handoff, payload, appID, createdAt, expiresAt, authorized}]}`
public enum HandoffListRequest: RequestType {
  /// `handoff.list`
  public static let method = "handoff.list"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `handoff.authorize {handoff, policy, localizedReason}` → `{handoff, requestID}`
public enum HandoffAuthorizeRequest: RequestType {
  /// `handoff.authorize`
  public static let method = "handoff.authorize"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `handoff.redeem {handoff}` → `{payload}`
public enum HandoffRedeemRequest: RequestType {
  /// `handoff.redeem`
  public static let method = "handoff.redeem"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `right.stateChanged {right, state}` whenever a right's state changes.
public enum RightStateChangedNotification: NotificationType {
  /// `right.stateChanged`
  public static let method = "right.stateChanged"
  /// `{right, state}`.
  public typealias Params = NotificationParams
}

/// `handoff.stateChanged {handoff, state: "authorized"}` to the creator's app (same uid and app id).
public enum HandoffStateChangedNotification: NotificationType {
  /// `handoff.stateChanged`
  public static let method = "handoff.stateChanged"
  /// `{handoff, state}`.
  public typealias Params = NotificationParams
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
