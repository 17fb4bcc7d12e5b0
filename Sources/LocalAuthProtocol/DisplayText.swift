/// Makes untrusted text (client names, reasons, titles: anything a client chose) safe to show a
/// person, on a terminal or on the desktop: control characters become visible escapes
/// (`PrintableText.escaped`), and so do the bidirectional overrides and marks that could reorder
/// what the person reads; long text is cut. The one rule for the terminal agent (`TerminalText`)
/// and the desktop's notifications (`DesktopNotifications`).
public enum DisplayText {
  /// The text, escaped and cut to `limit` scalars (then "…").
  public static func sanitize(_ text: String, limit: Int = 512) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count >= limit {
        result += "…"
        break
      }
      count += 1
      if isBidiControl(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return PrintableText.escaped(result)
  }

  /// Whether the scalar is a bidirectional embedding, override, isolate or mark.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      || value == 0x200E || value == 0x200F || value == 0x061C
  }
}
