import LocalAuthProtocol
import Testing

/// Client-chosen names printed on a terminal cannot carry control sequences.
@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("com.example.app", "com.example.app"),
    ("Réglages ✓", "Réglages ✓"),
    ("red\u{1B}[31mtext", "red\\x1b[31mtext"),
    ("two\nlines\r\tx", "two\\nlines\\r\\tx"),
    ("back\\slash", "back\\\\slash"),
    ("bell\u{07}del\u{7F}c1\u{9B}", "bell\\x07del\\x7fc1\\x9b"),
    ("evil\u{202E}txt.exe", "evil\\u{202e}txt.exe"),
  ])
  func controlCharactersAreEscaped(raw: String, shown: String) {
    #expect(TerminalText.escaped(raw) == shown)
  }

  @Test func escapedTextHasNoControlCharacters() {
    let all = String(String.UnicodeScalarView((0..<0xA0).compactMap(Unicode.Scalar.init)))
    let escaped = TerminalText.escaped(all)
    #expect(
      !escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
  }
}
