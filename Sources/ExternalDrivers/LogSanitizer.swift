/// Makes untrusted driver bytes safe to log: printable ASCII stays, everything else becomes `\xNN`, and the
/// result is cut at `limit` characters with an ellipsis.
public enum LogSanitizer {
  /// The sanitized text.
  public static func sanitize(_ bytes: some Sequence<UInt8>, limit: Int = 200) -> String {
    var text = ""
    for byte in bytes {
      if text.count >= limit {
        text += "…"
        break
      }
      if (0x20...0x7E).contains(byte) && byte != 0x5C {
        text.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16)
        text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return text
  }

  /// The sanitized text of a string's UTF-8 bytes.
  public static func sanitize(_ text: String, limit: Int = 200) -> String {
    sanitize(Array(text.utf8), limit: limit)
  }
}
