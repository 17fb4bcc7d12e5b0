import CLibCrypto

extension P256PrivateKey {
  /// Signs SHA-256(`message`) with ECDSA and returns the DER signature (Apple's ecdsaSignatureMessageX962SHA256).
  public func signature(for message: [UInt8]) throws -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new") }
    defer { EVP_MD_CTX_free(context) }
    return try withExtendedLifetime(handle) {
      try check(
        EVP_DigestSignInit(context, nil, EVP_sha256(), nil, handle.pointer), "EVP_DigestSignInit")
      var signature = [UInt8](repeating: 0, count: 80)
      var length = signature.count
      try withNonNullBytes(message) { data, count in
        try check(EVP_DigestSign(context, &signature, &length, data, count), "EVP_DigestSign")
      }
      return Array(signature.prefix(length))
    }
  }

  /// Returns the raw ECDH shared secret with `peer`: the 32-byte x-coordinate (Apple's ecdhKeyExchangeStandard;
  /// Cofactor is identical on P-256).
  public func sharedSecret(with peer: P256PublicKey) throws -> [UInt8] {
    try withExtendedLifetime((handle, peer.handle)) {
      guard let context = EVP_PKEY_CTX_new_from_pkey(nil, handle.pointer, nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey")
      }
      defer { EVP_PKEY_CTX_free(context) }
      try check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
      try check(
        EVP_PKEY_derive_set_peer_ex(context, peer.handle.pointer, 1), "EVP_PKEY_derive_set_peer_ex")
      var secret = [UInt8](repeating: 0, count: 32)
      var length = secret.count
      try check(EVP_PKEY_derive(context, &secret, &length), "EVP_PKEY_derive")
      guard length == 32 else {
        throw CryptoError.openSSL(operation: "EVP_PKEY_derive", reason: "got \(length) bytes")
      }
      return secret
    }
  }

  /// Returns X9.63-KDF-SHA256(ECDH secret, `sharedInfo`, `requestedSize` bytes)
  /// (Apple's ecdhKeyExchangeStandardX963SHA256 with requestedSize and sharedInfo).
  public func sharedSecret(with peer: P256PublicKey, requestedSize: Int, sharedInfo: [UInt8]) throws
    -> [UInt8]
  {
    try X963KDF.deriveSHA256(
      secret: sharedSecret(with: peer), sharedInfo: sharedInfo, count: requestedSize)
  }

  /// Decrypts Apple's eciesEncryptionStandardVariableIVX963SHA256AESGCM (and the Cofactor variant, identical on
  /// P-256): `ciphertext` is ephemeral X9.63 point (65) ‖ AES-GCM ciphertext ‖ tag (16).
  public func decrypt(_ ciphertext: [UInt8]) throws -> [UInt8] {
    let ephemeral = try ECIES.ephemeralKey(of: ciphertext)
    return try ECIES.open(ciphertext, sharedSecret: sharedSecret(with: ephemeral))
  }
}
