import CLibCrypto

/// A P-256 private key with its public point. Immutable and safe to share between threads.
public struct P256PrivateKey: Sendable {
  /// The OpenSSL key pair; see `PKeyHandle` for why sharing it is safe.
  let handle: PKeyHandle
  /// The public half of this key.
  public let publicKey: P256PublicKey

  /// Generates a fresh random P-256 key pair.
  public static func generate() throws -> P256PrivateKey {
    guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
      throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(EC)")
    }
    defer { EVP_PKEY_CTX_free(context) }
    try check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
    try check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name(P-256)")
    var key: OpaquePointer?
    guard EVP_PKEY_generate(context, &key) > 0, let key else {
      throw CryptoError.openSSL("EVP_PKEY_generate")
    }
    return try P256PrivateKey(handle: PKeyHandle(key))
  }

  /// Imports a key from its 32-byte big-endian scalar and its 65-byte X9.63 public point,
  /// checking that the point belongs to the scalar (`EVP_PKEY_pairwise_check`).
  public init(rawScalar: [UInt8], publicX963: [UInt8]) throws {
    guard rawScalar.count == 32 else {
      throw CryptoError.invalidKey("a P-256 scalar is 32 bytes, got \(rawScalar.count)")
    }
    guard publicX963.count == 65, publicX963.first == 0x04 else {
      throw CryptoError.invalidKey("a P-256 X9.63 public key is 65 bytes starting with 0x04")
    }
    guard let scalar = BN_secure_new() else { throw CryptoError.openSSL("BN_secure_new") }
    defer { BN_clear_free(scalar) }
    guard BN_bin2bn(rawScalar, 32, scalar) != nil else { throw CryptoError.openSSL("BN_bin2bn") }
    let handle = try publicX963.withUnsafeBufferPointer { point in
      try importECKey(selection: 0x87) { builder in
        try check(
          OSSL_PARAM_BLD_push_octet_string(
            builder, staticCString("pub"), point.baseAddress, point.count),
          "OSSL_PARAM_BLD_push_octet_string(pub)")
        try check(
          OSSL_PARAM_BLD_push_BN(builder, staticCString("priv"), scalar),
          "OSSL_PARAM_BLD_push_BN(priv)")
      }
    }
    guard let context = EVP_PKEY_CTX_new_from_pkey(nil, handle.pointer, nil) else {
      throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey")
    }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_pairwise_check(context) == 1 else {
      throw CryptoError.invalidKey(
        "the public point does not belong to the scalar: \(drainOpenSSLErrors())")
    }
    try self.init(handle: handle)
  }

  /// Imports a DER private key: SEC1 `ECPrivateKey` (as in Apple's test vectors) or PKCS#8.
  public init(sec1DER der: [UInt8]) throws {
    let decoded: OpaquePointer? = withNonNullBytes(der) { start, count in
      var cursor: UnsafePointer<UInt8>? = start
      return d2i_AutoPrivateKey(nil, &cursor, count)
    }
    guard let decoded else {
      throw CryptoError.invalidKey("not a DER EC private key: \(drainOpenSSLErrors())")
    }
    let handle = PKeyHandle(decoded)
    try requireP256(handle)
    try self.init(handle: handle)
  }

  /// Wraps a key pair OpenSSL already holds.
  init(handle: PKeyHandle) throws {
    self.handle = handle
    self.publicKey = try P256PublicKey(handle: handle)
  }

  /// The private scalar as 32 big-endian bytes. Handle with care: this is the secret key.
  public var rawScalar: [UInt8] {
    get throws {
      var scalar: OpaquePointer?
      try withExtendedLifetime(handle) {
        try check(
          EVP_PKEY_get_bn_param(handle.pointer, "priv", &scalar), "EVP_PKEY_get_bn_param(priv)")
      }
      guard let scalar else { throw CryptoError.openSSL("EVP_PKEY_get_bn_param(priv)") }
      defer { BN_clear_free(scalar) }
      var bytes = [UInt8](repeating: 0, count: 32)
      guard BN_bn2binpad(scalar, &bytes, 32) == 32 else {
        throw CryptoError.openSSL("BN_bn2binpad")
      }
      return bytes
    }
  }
}
