import CLibCrypto

/// A validated P-256 public key. Immutable and safe to share between threads.
public struct P256PublicKey: Sendable, Equatable, Hashable {
  /// The OpenSSL key; see `PKeyHandle` for why sharing it is safe.
  let handle: PKeyHandle
  /// The uncompressed X9.63 point `04 | X | Y` (65 bytes).
  public let x963: [UInt8]

  /// The DER `SubjectPublicKeyInfo` prefix every P-256 SPKI starts with; the 65-byte point follows it.
  public static let spkiPrefix: [UInt8] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
    0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
  ]

  /// Imports an uncompressed X9.63 point (65 bytes, `04 | X | Y`), rejecting points not on the curve.
  public init(x963: [UInt8]) throws {
    guard x963.count == 65, x963.first == 0x04 else {
      throw CryptoError.invalidKey(
        "a P-256 X9.63 public key is 65 bytes starting with 0x04, got \(x963.count) bytes")
    }
    let handle = try x963.withUnsafeBufferPointer { point in
      try importECKey(selection: 0x86) { builder in
        try check(
          OSSL_PARAM_BLD_push_octet_string(
            builder, staticCString("pub"), point.baseAddress, point.count),
          "OSSL_PARAM_BLD_push_octet_string(pub)")
      }
    }
    try Self.requireValidPoint(handle)
    self.handle = handle
    self.x963 = x963
  }

  /// Imports a DER `SubjectPublicKeyInfo` (91 bytes for P-256).
  public init(der: [UInt8]) throws {
    var consumed = 0
    let decoded: OpaquePointer? = withNonNullBytes(der) { start, count in
      var cursor: UnsafePointer<UInt8>? = start
      let key = d2i_PUBKEY(nil, &cursor, count)
      consumed = cursor.map { $0 - start } ?? 0
      return key
    }
    guard let decoded else {
      throw CryptoError.invalidKey("not a DER SubjectPublicKeyInfo: \(drainOpenSSLErrors())")
    }
    let handle = PKeyHandle(decoded)
    guard consumed == der.count else {
      throw CryptoError.invalidKey("trailing bytes after the SubjectPublicKeyInfo")
    }
    try requireP256(handle)
    try self.init(x963: Self.encodedPoint(of: handle))
  }

  /// Wraps a key OpenSSL already holds (for example the public half of a private key).
  init(handle: PKeyHandle) throws {
    self.handle = handle
    self.x963 = try Self.encodedPoint(of: handle)
  }

  /// The DER `SubjectPublicKeyInfo` encoding (91 bytes), as `openssl pkey -pubin -outform DER` writes it.
  public var der: [UInt8] { Self.spkiPrefix + x963 }

  /// Returns whether `der` is a valid DER ECDSA signature over SHA-256(`message`) by this key
  /// (Apple's ecdsaSignatureMessageX962SHA256).
  public func isValidSignature(_ der: [UInt8], for message: [UInt8]) -> Bool {
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    let verified = withExtendedLifetime(handle) { () -> Bool in
      guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, handle.pointer) == 1 else {
        return false
      }
      return withNonNullBytes(der) { signature, signatureCount in
        withNonNullBytes(message) { data, dataCount in
          EVP_DigestVerify(context, signature, signatureCount, data, dataCount) == 1
        }
      }
    }
    if !verified { _ = drainOpenSSLErrors() }
    return verified
  }

  /// Two keys are equal when their points are.
  public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool { lhs.x963 == rhs.x963 }

  /// Hashes the point.
  public func hash(into hasher: inout Hasher) { hasher.combine(x963) }

  /// Reads the uncompressed point of `handle` (`EVP_PKEY_get_octet_string_param("encoded-pub-key")`).
  static func encodedPoint(of handle: PKeyHandle) throws -> [UInt8] {
    var point = [UInt8](repeating: 0, count: 65)
    var length = 0
    try check(
      EVP_PKEY_get_octet_string_param(
        handle.pointer, "encoded-pub-key", &point, point.count, &length),
      "EVP_PKEY_get_octet_string_param(encoded-pub-key)")
    guard length == 65 else {
      throw CryptoError.invalidKey("public point is \(length) bytes, expected 65")
    }
    return point
  }

  /// Runs OpenSSL's full public-key check (on the curve, not infinity, correct order).
  private static func requireValidPoint(_ handle: PKeyHandle) throws {
    guard let context = EVP_PKEY_CTX_new_from_pkey(nil, handle.pointer, nil) else {
      throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey")
    }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_public_check(context) == 1 else {
      throw CryptoError.invalidKey("point is not a valid P-256 public key: \(drainOpenSSLErrors())")
    }
  }
}
