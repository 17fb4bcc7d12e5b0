import CLibCrypto

/// SHA-256 digests through OpenSSL's `EVP_Digest`. Safe from any thread.
public enum SHA256 {
  /// Returns the 32-byte SHA-256 digest of `data`.
  public static func hash(_ data: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let status = withNonNullBytes(data) { input, count in
      EVP_Digest(input, count, &digest, &length, EVP_sha256(), nil)
    }
    precondition(status == 1 && length == 32, "EVP_Digest(SHA-256) failed: \(drainOpenSSLErrors())")
    return digest
  }
}
