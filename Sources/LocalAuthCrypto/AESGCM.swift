import CLibCrypto

/// One-shot AES-GCM with a 16-byte tag and any IV length, the primitive under ECIES and sealing.
enum AESGCM {
  /// Encrypts `plaintext`; `key` is 16 bytes (AES-128) or 32 bytes (AES-256). Returns ciphertext and tag.
  static func seal(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8]) throws -> (
    ciphertext: [UInt8], tag: [UInt8]
  ) {
    let context = try CipherContext(key: key, iv: iv, encrypting: true)
    try context.authenticate(aad)
    let ciphertext = try context.update(plaintext)
    var tail = [UInt8](repeating: 0, count: 16)
    var tailLength: Int32 = 0
    try check(EVP_EncryptFinal_ex(context.pointer, &tail, &tailLength), "EVP_EncryptFinal_ex")
    var tag = [UInt8](repeating: 0, count: 16)
    try check(
      EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, 16, &tag), "EVP_CTRL_GCM_GET_TAG")
    return (ciphertext + tail.prefix(Int(tailLength)), tag)
  }

  /// Decrypts and verifies; throws `CryptoError.authenticationFailed` if the tag does not match.
  static func open(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8])
    throws -> [UInt8]
  {
    guard tag.count == 16 else { throw CryptoError.invalidInput("AES-GCM tag must be 16 bytes") }
    let context = try CipherContext(key: key, iv: iv, encrypting: false)
    try context.authenticate(aad)
    let plaintext = try context.update(ciphertext)
    var expectedTag = tag
    try check(
      EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, 16, &expectedTag),
      "EVP_CTRL_GCM_SET_TAG")
    var tail = [UInt8](repeating: 0, count: 16)
    var tailLength: Int32 = 0
    guard EVP_DecryptFinal_ex(context.pointer, &tail, &tailLength) > 0 else {
      _ = drainOpenSSLErrors()
      throw CryptoError.authenticationFailed
    }
    return plaintext + tail.prefix(Int(tailLength))
  }
}

/// Owns one `EVP_CIPHER_CTX` set up for AES-GCM; used by one call on one thread, never shared.
private final class CipherContext {
  let pointer: OpaquePointer
  let encrypting: Bool

  init(key: [UInt8], iv: [UInt8], encrypting: Bool) throws {
    let cipher: OpaquePointer?
    switch key.count {
    case 16: cipher = EVP_aes_128_gcm()
    case 32: cipher = EVP_aes_256_gcm()
    default: throw CryptoError.invalidInput("AES-GCM key must be 16 or 32 bytes, got \(key.count)")
    }
    guard !iv.isEmpty else { throw CryptoError.invalidInput("AES-GCM IV must not be empty") }
    guard let pointer = EVP_CIPHER_CTX_new() else {
      throw CryptoError.openSSL("EVP_CIPHER_CTX_new")
    }
    self.pointer = pointer
    self.encrypting = encrypting
    let initialize = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
    try check(initialize(pointer, cipher, nil, nil, nil), "EVP_CipherInit_ex(AES-GCM)")
    try check(
      EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(iv.count), nil),
      "EVP_CTRL_GCM_SET_IVLEN")
    try check(initialize(pointer, nil, nil, key, iv), "EVP_CipherInit_ex(key, iv)")
  }

  deinit { EVP_CIPHER_CTX_free(pointer) }

  /// Feeds additional authenticated data.
  func authenticate(_ aad: [UInt8]) throws {
    guard !aad.isEmpty else { return }
    var ignored: Int32 = 0
    try check(
      encrypting
        ? EVP_EncryptUpdate(pointer, nil, &ignored, aad, Int32(aad.count))
        : EVP_DecryptUpdate(pointer, nil, &ignored, aad, Int32(aad.count)),
      "EVP_CipherUpdate(aad)")
  }

  /// Encrypts or decrypts `input`; GCM output has the same length.
  func update(_ input: [UInt8]) throws -> [UInt8] {
    guard !input.isEmpty else { return [] }
    guard input.count < Int(Int32.max) - 16 else {
      throw CryptoError.invalidInput("AES-GCM input too large")
    }
    var output = [UInt8](repeating: 0, count: input.count + 16)
    var length: Int32 = 0
    try check(
      encrypting
        ? EVP_EncryptUpdate(pointer, &output, &length, input, Int32(input.count))
        : EVP_DecryptUpdate(pointer, &output, &length, input, Int32(input.count)),
      "EVP_CipherUpdate")
    return Array(output.prefix(Int(length)))
  }
}
