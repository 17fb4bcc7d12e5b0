/// Makes untrusted text (client names, reasons, titles: anything a client chose) safe to print on a
/// terminal: control characters (C0, DEL, C1), and bidirectional overrides become visible `\u{…}` escapes,
/// so no escape sequence, carriage return or fake line reaches the terminal.
public enum TerminalText {
  /// The text with every control or bidi-override scalar replaced by a visible escape, cut to `limit` scalars.
  public static func sanitize(_ text: String, limit: Int = 512) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count >= limit {
        result += "…"
        break
      }
      count += 1
      let value = scalar.value
      let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
      let isBidi =
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
        || value == 0x200F || value == 0x061C
      if isControl || isBidi {
        result += "\\u{" + String(value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
