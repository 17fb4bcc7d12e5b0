import CLibCrypto

/// A salted slow hash of a passcode (scrypt through OpenSSL's `EVP_PBE_scrypt`), as kept in the store.
/// The parameters travel with the hash, so they can be raised later without breaking stored rows.
public struct PasscodeHash: Sendable, Equatable {
  /// The scrypt cost exponent: N = 2^costLog2.
  public var costLog2: Int
  /// The scrypt block size r.
  public var blockSize: Int
  /// The scrypt parallelism p.
  public var parallelism: Int
  /// 16 random bytes.
  public var salt: [UInt8]
  /// The 32-byte derived key.
  public var digest: [UInt8]

  /// The cost used for new hashes: N = 2^14, r = 8, p = 1 (16 MiB, tens of milliseconds).
  public static let defaultCostLog2 = 14

  /// A stored hash.
  public init(costLog2: Int, blockSize: Int, parallelism: Int, salt: [UInt8], digest: [UInt8]) {
    self.costLog2 = costLog2
    self.blockSize = blockSize
    self.parallelism = parallelism
    self.salt = salt
    self.digest = digest
  }

  /// Hashes `passcode` with a fresh random salt. Slow on purpose: never call it on the event loop.
  public static func make(_ passcode: String, costLog2: Int = defaultCostLog2) throws
    -> PasscodeHash
  {
    let salt = SecureRandom.bytes(16)
    let digest = try scrypt(Array(passcode.utf8), salt: salt, costLog2: costLog2, r: 8, p: 1)
    return PasscodeHash(
      costLog2: costLog2, blockSize: 8, parallelism: 1, salt: salt, digest: digest)
  }

  /// Whether `passcode` is the one hashed, compared in constant time (`CRYPTO_memcmp`). Slow on purpose.
  public func verify(_ passcode: String) -> Bool {
    guard
      let candidate = try? Self.scrypt(
        Array(passcode.utf8), salt: salt, costLog2: costLog2, r: blockSize, p: parallelism),
      candidate.count == digest.count
    else { return false }
    return ConstantTime.equal(candidate, digest)
  }

  static func scrypt(_ secret: [UInt8], salt: [UInt8], costLog2: Int, r: Int, p: Int) throws
    -> [UInt8]
  {
    guard (10...20).contains(costLog2), (1...32).contains(r), (1...16).contains(p) else {
      throw CryptoError.invalidInput("scrypt parameters out of range")
    }
    var output = [UInt8](repeating: 0, count: 32)
    let characters = secret.map { CChar(bitPattern: $0) } + [0]
    let status = characters.withUnsafeBufferPointer { secretBytes in
      salt.withUnsafeBufferPointer { saltBytes in
        EVP_PBE_scrypt(
          secretBytes.baseAddress, secret.count, saltBytes.baseAddress, saltBytes.count,
          UInt64(1) << UInt64(costLog2), UInt64(r), UInt64(p), 64 * 1024 * 1024, &output,
          output.count)
      }
    }
    try check(status, "EVP_PBE_scrypt")
    return output
  }
}

/// Comparisons whose running time does not depend on where the bytes differ.
public enum ConstantTime {
  /// Whether two byte strings of equal length are equal (`CRYPTO_memcmp`); false for unequal lengths.
  public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { x in
      b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
    }
  }
}

/// HMAC-SHA-256 through OpenSSL's one-shot `HMAC`. Safe from any thread.
public enum HMACSHA256 {
  /// The 32-byte HMAC-SHA-256 of `data` under `key`.
  public static func authenticate(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let result = key.withUnsafeBytes { keyBytes in
      data.withUnsafeBufferPointer { dataBytes in
        HMAC(
          EVP_sha256(), keyBytes.baseAddress, Int32(key.count), dataBytes.baseAddress,
          dataBytes.count, &output, &length)
      }
    }
    precondition(result != nil && length == 32, "HMAC-SHA-256 failed: \(drainOpenSSLErrors())")
    return output
  }
}
