/// Seals data at rest with AES-256-GCM under one 32-byte key. Immutable and safe to share between threads.
///
/// Blob format: version `0x01` ‖ random nonce (12) ‖ ciphertext ‖ tag (16). The caller's AAD binds each blob to
/// its context (for example its owner and row) and is recomputed when opening, never stored.
/// Stay under 2³² seals per key (random 96-bit nonces, NIST SP 800-38D).
public struct AESGCMSealer: Sendable {
  /// The blob format version byte.
  public static let version: UInt8 = 0x01
  /// Bytes a sealed blob adds to its plaintext: version (1), nonce (12) and tag (16).
  public static let overhead = 1 + 12 + 16

  private let key: [UInt8]

  /// Creates a sealer for a 32-byte AES-256 key.
  public init(key: [UInt8]) throws {
    guard key.count == 32 else {
      throw CryptoError.invalidKey("a sealing key is 32 bytes, got \(key.count)")
    }
    self.key = key
  }

  /// Encrypts and authenticates `plaintext` together with `aad`, returning the blob.
  public func seal(_ plaintext: [UInt8], authenticating aad: [UInt8]) throws -> [UInt8] {
    let nonce = SecureRandom.bytes(12)
    let sealed = try AESGCM.seal(plaintext, key: key, iv: nonce, aad: aad)
    return [Self.version] + nonce + sealed.ciphertext + sealed.tag
  }

  /// Verifies and decrypts a blob made by `seal` with the same key and AAD; throws `CryptoError.authenticationFailed`
  /// if anything differs.
  public func open(_ blob: [UInt8], authenticating aad: [UInt8]) throws -> [UInt8] {
    guard blob.count >= Self.overhead else {
      throw CryptoError.invalidInput(
        "sealed blob is \(blob.count) bytes, shorter than its \(Self.overhead)-byte overhead")
    }
    guard blob[0] == Self.version else {
      throw CryptoError.invalidInput("unknown sealed blob version \(blob[0])")
    }
    return try AESGCM.open(
      Array(blob[13..<(blob.count - 16)]), tag: Array(blob.suffix(16)), key: key,
      iv: Array(blob[1..<13]), aad: aad)
  }
}
