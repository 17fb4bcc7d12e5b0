import CLibCrypto

/// Checks a server host key's signature as OpenSSH makes it, for the host keys an agent binds a
/// session to: Ed25519 (the signature over the data itself) and ECDSA P-256 (over its SHA-256).
public enum HostKeySignature {
  /// Whether the 64-byte `signature` is a valid Ed25519 signature of `message` by the 32-byte `publicKey`.
  public static func isValidEd25519(
    _ signature: [UInt8], of message: [UInt8], by publicKey: [UInt8]
  )
    -> Bool
  {
    guard publicKey.count == 32, signature.count == 64 else { return false }
    guard
      let key = publicKey.withUnsafeBufferPointer({
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32)
      })
    else {
      _ = drainOpenSSLErrors()
      return false
    }
    defer { EVP_PKEY_free(key) }
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else {
      _ = drainOpenSSLErrors()
      return false
    }
    let verified = withNonNullBytes(signature) { signatureBytes, signatureCount in
      withNonNullBytes(message) { data, dataCount in
        EVP_DigestVerify(context, signatureBytes, signatureCount, data, dataCount) == 1
      }
    }
    if !verified { _ = drainOpenSSLErrors() }
    return verified
  }

  /// Whether `der` is a valid ECDSA P-256 signature over SHA-256(`message`) by the X9.63 point `x963`.
  public static func isValidP256(_ der: [UInt8], of message: [UInt8], by x963: [UInt8]) -> Bool {
    guard let key = try? P256PublicKey(x963: x963) else { return false }
    return key.isValidSignature(der, for: message)
  }
}
