// The requests of docs/protocol.md, "Rights and keys" that use a persisted right's key or
// secret: key.sign, key.decrypt, key.exchangeKeys and secret.load (key.publicKey, which needs no
// authorization, is with the rights), and the key algorithms they accept.

/// The params of a key method: a right and `algorithm`.
public protocol KeyParams: RightParams {}

extension KeyParams {
  /// `algorithm`, optional: a `KeyAlgorithm` name.
  public func algorithm() throws(RPCError) -> String? { try reader.optionalString("algorithm") }
}

/// The params of `key.sign` and `key.decrypt`: `{right, data, algorithm?}`.
public struct KeyDataParams: KeyParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params that use the key of the right with this handle on `data`.
  public init(right: JSONValue, data: [UInt8], algorithm: String?) {
    object = [
      "right": right, "data": .string(Base64.encode(data)),
      "algorithm": algorithm.map(JSONValue.string),
    ]
  }
  /// `data`, required, base64, at most `maxBytes`.
  public func data(maxBytes: Int) throws(RPCError) -> [UInt8] {
    try reader.base64("data", maxBytes: maxBytes)
  }
}

/// `key.sign {right, data, algorithm?}` → `{signature}`
public enum KeySignRequest: RequestType {
  /// `key.sign`
  public static let method = "key.sign"
  /// The result object.
  public typealias Result = SignatureResult
  /// `{right, data, algorithm?}`.
  public typealias Params = KeyDataParams
}

/// `key.decrypt {right, data, algorithm?}` → `{plaintext}`
public enum KeyDecryptRequest: RequestType {
  /// `key.decrypt`
  public static let method = "key.decrypt"
  /// The result object.
  public typealias Result = PlaintextResult
  /// `{right, data, algorithm?}`.
  public typealias Params = KeyDataParams
}

/// `key.exchangeKeys {right, publicKey, algorithm?, requestedSize?, sharedInfo?}` → `{sharedSecret}`
public enum KeyExchangeRequest: RequestType {
  /// `key.exchangeKeys`
  public static let method = "key.exchangeKeys"
  /// The result object.
  public typealias Result = SharedSecretResult

  /// `{right, publicKey, algorithm?, requestedSize?, sharedInfo?}`.
  public struct Params: KeyParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of an exchange with the peer key `publicKey` (X9.63 or DER).
    public init(
      right: JSONValue, publicKey: [UInt8], algorithm: String?, requestedSize: Int?,
      sharedInfo: [UInt8]?
    ) {
      object = [
        "right": right, "publicKey": .string(Base64.encode(publicKey)),
        "algorithm": algorithm.map(JSONValue.string),
        "requestedSize": requestedSize.map(JSONValue.int),
        "sharedInfo": sharedInfo.map { .string(Base64.encode($0)) },
      ]
    }
    /// `publicKey`, required, base64, at most `maxBytes`.
    public func publicKey(maxBytes: Int) throws(RPCError) -> [UInt8] {
      try reader.base64("publicKey", maxBytes: maxBytes)
    }
    /// `requestedSize`, optional, 1…4096 bytes.
    public func requestedSize() throws(RPCError) -> Int? {
      try reader.optionalInt("requestedSize", in: 1...4096)
    }
    /// `sharedInfo`, optional, base64, at most `maxBytes`.
    public func sharedInfo(maxBytes: Int) throws(RPCError) -> [UInt8]? {
      try reader.optionalBase64("sharedInfo", maxBytes: maxBytes)
    }
  }
}

/// `secret.load {right}` → `{secret}`
public enum SecretLoadRequest: RequestType {
  /// `secret.load`
  public static let method = "secret.load"
  /// The result object.
  public typealias Result = SecretResult
  /// `{right}`.
  public typealias Params = RightHandleParams
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
