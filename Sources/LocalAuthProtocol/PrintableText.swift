/// Text that is safe to print on one line of a log or a terminal: control characters (C0, DEL,
/// C1, and the Unicode line and paragraph separators) become visible escapes, so a client-chosen
/// string can neither start a forged log line nor send escape sequences to a terminal.
public enum PrintableText {
  /// Whether the text holds any character that `escaped` would rewrite.
  public static func containsControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: isControl)
  }

  /// The text with every control character written as `\n`, `\t`, `\r` or `\u{XX}`.
  public static func escaped(_ text: String) -> String {
    guard containsControlCharacters(text) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    default: false
    }
  }
}
