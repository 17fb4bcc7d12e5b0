import CLibCrypto

/// ANSI X9.63 key derivation through OpenSSL's `EVP_KDF` "X963KDF". Safe from any thread.
public enum X963KDF {
  /// Derives `count` bytes: SHA256(secret ‖ counter_be32 ‖ sharedInfo) for counter = 1, 2, …, truncated.
  public static func deriveSHA256(secret: [UInt8], sharedInfo: [UInt8], count: Int) throws
    -> [UInt8]
  {
    guard count > 0, !secret.isEmpty else {
      throw CryptoError.invalidInput(
        "X9.63 KDF needs a non-empty secret and a positive output size")
    }
    guard let kdf = EVP_KDF_fetch(nil, "X963KDF", nil) else {
      throw CryptoError.openSSL("EVP_KDF_fetch(X963KDF)")
    }
    defer { EVP_KDF_free(kdf) }
    guard let context = EVP_KDF_CTX_new(kdf) else { throw CryptoError.openSSL("EVP_KDF_CTX_new") }
    defer { EVP_KDF_CTX_free(context) }
    var output = [UInt8](repeating: 0, count: count)
    // OSSL_PARAM keeps the key, value and buffer pointers: all stay valid until EVP_KDF_derive returns.
    var secretCopy = secret
    var infoCopy = sharedInfo
    try secretCopy.withUnsafeMutableBytes { secretBytes in
      try infoCopy.withUnsafeMutableBytes { infoBytes in
        var params = [
          OSSL_PARAM_construct_utf8_string(
            staticCString("digest"), UnsafeMutablePointer(mutating: staticCString("SHA256")), 0),
          OSSL_PARAM_construct_octet_string(
            staticCString("key"), secretBytes.baseAddress, secretBytes.count),
        ]
        if !infoBytes.isEmpty {
          params.append(
            OSSL_PARAM_construct_octet_string(
              staticCString("info"), infoBytes.baseAddress, infoBytes.count))
        }
        params.append(OSSL_PARAM_construct_end())
        try check(EVP_KDF_derive(context, &output, count, &params), "EVP_KDF_derive(X963KDF)")
      }
    }
    return output
  }
}
