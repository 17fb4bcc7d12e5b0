import CCryptoShim

/// Cryptographically secure random bytes from the kernel (getrandom(2)). Safe from any thread.
public enum SecureRandom {
  /// Returns `count` random bytes; traps if the kernel cannot supply them, which only happens on a broken system.
  public static func bytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard count > 0 else { return bytes }
    let status = bytes.withUnsafeMutableBytes { cshim_random_bytes($0.baseAddress, $0.count) }
    precondition(status == 0, "getrandom(2) failed; refusing to continue without secure randomness")
    return bytes
  }
}
