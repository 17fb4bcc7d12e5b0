import Glibc

/// The program's lines on standard error (the user journal, under its unit): never a secret.
enum Log {
  /// Writes "localauthd-prompt: TEXT" (one write(2), retrying EINTR).
  static func note(_ text: String) {
    let bytes = Array("localauthd-prompt: \(text)\n".utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0, errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}
