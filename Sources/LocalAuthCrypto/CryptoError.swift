import CLibCrypto

/// A failure in a LocalAuthCrypto operation, carrying OpenSSL's own reason where there is one.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An OpenSSL call failed; `reason` is the drained OpenSSL error queue (or a note that it was empty).
  case openSSL(operation: String, reason: String)
  /// Key bytes that are not a valid P-256 key of the expected form.
  case invalidKey(String)
  /// Input that is malformed before any cryptography runs (wrong length, wrong version byte).
  case invalidInput(String)
  /// An AES-GCM tag did not verify: the data was tampered with, or the key, IV or AAD differ.
  case authenticationFailed

  /// A human-readable explanation of the failure.
  public var description: String {
    switch self {
    case .openSSL(let operation, let reason): return "OpenSSL \(operation) failed: \(reason)"
    case .invalidKey(let detail): return "invalid key: \(detail)"
    case .invalidInput(let detail): return "invalid input: \(detail)"
    case .authenticationFailed:
      return "authentication failed: the tag does not match (tampered data or wrong key)"
    }
  }

  /// Builds an `.openSSL` error from the calling thread's OpenSSL error queue, emptying the queue.
  static func openSSL(_ operation: String) -> CryptoError {
    .openSSL(operation: operation, reason: drainOpenSSLErrors())
  }
}

/// Reads and clears the calling thread's OpenSSL error queue (ERR_get_error + ERR_error_string_n).
func drainOpenSSLErrors() -> String {
  var reasons: [String] = []
  while true {
    let code = ERR_get_error()
    if code == 0 { break }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    reasons.append(
      String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }
  return reasons.isEmpty ? "no OpenSSL error recorded" : reasons.joined(separator: "; ")
}

/// Throws `CryptoError.openSSL(operation)` unless an OpenSSL status code signals success (> 0).
@inline(__always)
func check(_ status: Int32, _ operation: String) throws {
  guard status > 0 else { throw CryptoError.openSSL(operation) }
}
