/// Makes untrusted text (client names, reasons, titles: anything a client chose) safe to show in a
/// prompt, on a terminal or in a window: control characters become visible escapes
/// (`PrintableText.escaped`), and so do the bidirectional overrides that could reorder what the
/// person reads; long text is cut. The one rule every prompt agent shows client text by.
public enum PromptText {
  /// The text, escaped and cut to `limit` scalars.
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
      let isBidi =
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
        || value == 0x200F || value == 0x061C
      if isBidi {
        result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return PrintableText.escaped(result)
  }
}
