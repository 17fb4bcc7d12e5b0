import LocalAuthProtocol
import Testing

@Suite("PrintableText") struct PrintableTextTests {
  /// What the escaper must catch, by the scalar's value: C0, DEL, C1, LINE and PARAGRAPH SEPARATOR.
  private static func isControl(_ value: UInt32) -> Bool {
    value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
  }

  @Test("The byte scan finds exactly the control characters, alone or between other text")
  func theByteScanAgreesWithTheScalarDefinition() {
    for value in UInt32(0)..<0x3000 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let alone = String(Character(scalar))
      let between = "é" + alone + "日本"
      #expect(PrintableText.containsControlCharacters(alone) == Self.isControl(value), "U+\(value)")
      #expect(
        PrintableText.containsControlCharacters(between) == Self.isControl(value), "U+\(value)")
    }
    // Neighbours of the multi-byte controls are not controls.
    #expect(!PrintableText.containsControlCharacters("\u{A0}\u{2027}\u{202A}\u{1F600}"))
  }

  @Test("Escaping writes controls as visible escapes and leaves other text alone")
  func escapingIsVisibleAndMinimal() {
    #expect(PrintableText.escaped("a\nb\tc\rd") == "a\\nb\\tc\\rd")
    #expect(PrintableText.escaped("x\u{1B}[31m\u{85}\u{2028}") == "x\\u{1B}[31m\\u{85}\\u{2028}")
    #expect(PrintableText.escaped("plain café") == "plain café")
  }
}
