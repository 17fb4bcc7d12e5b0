// The answers of the key and secret methods (docs/protocol.md, "Rights and keys").

/// The bytes one key or secret method answers with, base64 on the wire under the method's own
/// member name: `key.sign` → signature, `key.decrypt` → plaintext, `key.exchange` → sharedSecret,
/// `secret.load` → secret.
public protocol KeyBytesResult: MethodResult {
  /// The member the bytes travel in.
  static var member: String { get }
  /// The bytes.
  var bytes: [UInt8] { get }
  /// An answer with these bytes.
  init(bytes: [UInt8])
}

extension KeyBytesResult {
  /// `{member: base64}`.
  public var json: JSONValue { [Self.member: .string(Base64.encode(bytes))] }
  /// From `{member: base64}`; nil when the member is missing or not base64.
  public init?(json: JSONValue) {
    guard let text = json.objectValue?[Self.member]?.stringValue,
      let bytes = Base64.decode(text)
    else { return nil }
    self.init(bytes: bytes)
  }
}

/// `key.sign`'s answer: the DER ECDSA signature.
public struct SignatureResult: KeyBytesResult, Equatable {
  /// "signature".
  public static let member = "signature"
  /// The signature.
  public var bytes: [UInt8]
  /// An answer.
  public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// `key.decrypt`'s answer: the plaintext.
public struct PlaintextResult: KeyBytesResult, Equatable {
  /// "plaintext".
  public static let member = "plaintext"
  /// The plaintext.
  public var bytes: [UInt8]
  /// An answer.
  public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// `key.exchange`'s answer: the ECDH shared secret.
public struct SharedSecretResult: KeyBytesResult, Equatable {
  /// "sharedSecret".
  public static let member = "sharedSecret"
  /// The shared secret.
  public var bytes: [UInt8]
  /// An answer.
  public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// `secret.load`'s answer: the right's secret.
public struct SecretResult: KeyBytesResult, Equatable {
  /// "secret".
  public static let member = "secret"
  /// The secret.
  public var bytes: [UInt8]
  /// An answer.
  public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// `key.publicKey`'s answer: the right's public key, in X9.63 and DER, and where its private key
/// lives.
public struct PublicKeyResult: MethodResult, Equatable {
  /// The X9.63 uncompressed point (65 bytes).
  public var x963: [UInt8]
  /// The SubjectPublicKeyInfo DER.
  public var der: [UInt8]
  /// Where the private key lives: "tpm" (made inside the TPM) or "file" (sealed under the device
  /// key); nil from a daemon that does not say.
  public var keyStore: String?
  /// An answer.
  public init(x963: [UInt8], der: [UInt8], keyStore: String? = nil) {
    self.x963 = x963
    self.der = der
    self.keyStore = keyStore
  }
  /// `{x963, der, keyStore}`, base64.
  public var json: JSONValue {
    [
      "x963": .string(Base64.encode(x963)), "der": .string(Base64.encode(der)),
      "keyStore": keyStore.map(JSONValue.string),
    ]
  }
  /// From `{x963, der, keyStore?}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue,
      let x963 = object["x963"]?.stringValue.flatMap(Base64.decode),
      let der = object["der"]?.stringValue.flatMap(Base64.decode)
    else { return nil }
    self.x963 = x963
    self.der = der
    keyStore = object["keyStore"]?.stringValue
  }
}
