/// Apple's eciesEncryptionStandardVariableIVX963SHA256AESGCM for P-256 keys. Safe from any thread.
///
/// Output: ephemeral X9.63 point E (65) ‖ AES-128-GCM ciphertext ‖ tag (16), where
/// X9.63-KDF-SHA256(ECDH(e, recipient), sharedInfo: E, 32 bytes) gives the key (first 16) and the 16-byte IV (last 16),
/// with no AAD. Decrypt with `P256PrivateKey.decrypt(_:)`.
public enum ECIES {
  /// Bytes an ECIES ciphertext adds to its plaintext: the 65-byte ephemeral point and the 16-byte tag.
  public static let overhead = 65 + 16

  /// Encrypts `plaintext` to `recipient` exactly as Security.framework's SecKeyCreateEncryptedData does.
  public static func encrypt(_ plaintext: [UInt8], to recipient: P256PublicKey) throws -> [UInt8] {
    let ephemeral = try P256PrivateKey.generate()
    let ephemeralPoint = ephemeral.publicKey.x963
    let material = try X963KDF.deriveSHA256(
      secret: ephemeral.sharedSecret(with: recipient), sharedInfo: ephemeralPoint, count: 32)
    let sealed = try AESGCM.seal(
      plaintext, key: Array(material[0..<16]), iv: Array(material[16..<32]), aad: [])
    return ephemeralPoint + sealed.ciphertext + sealed.tag
  }

  /// The ephemeral public key of `ciphertext`, the point whose ECDH with the recipient's key opens
  /// it. Throws `CryptoError.invalidInput` for ciphertext shorter than its overhead or whose first
  /// 65 bytes are not a P-256 point.
  public static func ephemeralKey(of ciphertext: [UInt8]) throws -> P256PublicKey {
    guard ciphertext.count >= overhead else {
      throw CryptoError.invalidInput(
        "ECIES ciphertext is \(ciphertext.count) bytes, shorter than its 81-byte overhead")
    }
    return try P256PublicKey(x963: Array(ciphertext[0..<65]))
  }

  /// Opens `ciphertext` given the raw ECDH shared secret of the recipient's key with its ephemeral
  /// key (`ephemeralKey(of:)`), wherever that was computed (OpenSSL here, or a TPM's
  /// `TPM2_ECDH_ZGen`): X9.63-KDF, then AES-GCM. Throws when the tag does not verify.
  public static func open(_ ciphertext: [UInt8], sharedSecret: [UInt8]) throws -> [UInt8] {
    _ = try ephemeralKey(of: ciphertext)
    let ephemeralPoint = Array(ciphertext[0..<65])
    let material = try X963KDF.deriveSHA256(
      secret: sharedSecret, sharedInfo: ephemeralPoint, count: 32)
    return try AESGCM.open(
      Array(ciphertext[65..<(ciphertext.count - 16)]), tag: Array(ciphertext.suffix(16)),
      key: Array(material[0..<16]), iv: Array(material[16..<32]), aad: [])
  }
}
