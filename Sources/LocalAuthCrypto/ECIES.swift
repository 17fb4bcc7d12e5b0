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
}
