/// Text that is safe to print on one line of a log or a terminal: control characters (C0, DEL,
/// C1, and the Unicode line and paragraph separators) become visible escapes, so a client-chosen
/// string can neither start a forged log line nor send escape sequences to a terminal.
public enum PrintableText {
  /// Whether the text holds any character that `escaped` would rewrite.
  public static func containsControlCharacters(_ text: String) -> Bool {
    // The UTF-8 bytes of every control character: C0 and DEL are single bytes, C1 is 0xC2 0x80…0x9F,
    // U+2028 and U+2029 are 0xE2 0x80 0xA8 and 0xA9. A byte scan is several times cheaper than
    // decoding scalars, and every log line goes through here.
    if let found = text.utf8.withContiguousStorageIfAvailable(containsControlBytes) { return found }
    return text.unicodeScalars.contains(where: isControl)
  }

  private static func containsControlBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x7F { return true }
      if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
      if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80,
        bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
      {
        return true
      }
      index += 1
    }
    return false
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
