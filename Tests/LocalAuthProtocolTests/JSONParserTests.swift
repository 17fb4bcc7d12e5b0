import LocalAuthProtocol
import Testing

/// RFC 8259 strictness of `JSONParser`: what it accepts, what it rejects, and why.
@Suite("JSONParser")
struct JSONParserTests {
  @Test(
    "accepts valid RFC 8259 texts",
    arguments: [
      "null", "true", "false", "0", "-0", "1", "-1", "0.5", "-0.5", "10.25", "1e5", "1E5", "1e+5",
      "1e-5",
      "1.5E-10", "0e0", "-0.0e-0", "123456789", "\"\"", "\"abc\"", "[]", "{}", "[1,2,3]",
      "{\"a\":1}",
      "{\"a\":{\"b\":[true,false,null]}}", " \t\r\n[ 1 , 2 ]\n\r\t ", "{ \"a\" : 1 , \"b\" : 2 }",
      "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u0041\\u00e9\\u20AC\"", "\"\\ud83d\\ude00\"",
      "\"\\u0000\"",
      "\"\u{7F}\"", "\"é€😀\"", "[[],[[]],{}]", "{\"\":\"\"}",
    ])
  func acceptsValid(_ text: String) {
    if case .failure(let error) = parseResult(text) {
      Issue.record("rejected \(text): \(error.message)")
    }
  }

  @Test(
    "rejects invalid texts as syntax errors",
    arguments: [
      // Numbers
      "01", "-01", "00", "+1", ".5", "5.", "1.e5", "1e", "1e+", "1E-", "-", "--1", "0x10",
      "Infinity",
      "-Infinity", "NaN", "1.5.5", "[01]", "1_000",
      // Literals
      "tru", "True", "nul", "NULL", "nulll", "falsey",
      // Trailing and missing commas, structure
      "[1,]", "[,1]", "[1,,2]", "{\"a\":1,}", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}",
      "{'a':1}",
      "['a']", "{\"a\":1 \"b\":2}", "[", "]", "{", "}", "[1", "{\"a\":1", "{\"a\"", "[}", "{]",
      "{1:2}",
      // Strings: unterminated, bare control characters, bad escapes, surrogates
      "\"abc", "\"\t\"", "\"\n\"", "\"\r\"", "\"\u{0}\"", "\"\u{1F}\"", "\"\\x41\"", "\"\\'\"",
      "\"\\a\"",
      "\"\\0\"", "\"\\U0041\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\u\"", "\"\\",
      // Whitespace that RFC 8259 does not allow, and trailing garbage
      "\u{0C}1", "[1,\u{0B}2]", "\u{A0}1", "{} x", "1 2", "[]]", "\"a\"\"b\"", "{}{}", "null,",
      "\u{FEFF}{}",
    ])
  func rejectsInvalid(_ text: String) {
    switch parseResult(text) {
    case .success(let value): Issue.record("accepted \(text) as \(value)")
    case .failure(let error): #expect(error.reason == "syntax", "\(text): \(error.message)")
    }
  }

  @Test(
    "unpaired surrogate escapes are 'unpairedSurrogate', or U+FFFD when replacing",
    arguments: [
      ("\"\\ud800\"", "\u{FFFD}"), ("\"\\udc00\"", "\u{FFFD}"), ("\"\\ud800x\"", "\u{FFFD}x"),
      ("\"\\ud800\\u0041\"", "\u{FFFD}A"), ("\"\\ud800\\ud800\"", "\u{FFFD}\u{FFFD}"),
      ("\"\\ude00\\ud83d\"", "\u{FFFD}\u{FFFD}"), ("\"\\ud800\\n\"", "\u{FFFD}\n"),
      ("\"\\ud800\\ud83d\\ude00\"", "\u{FFFD}\u{1F600}"),
    ])
  func unpairedSurrogates(_ text: String, replaced: String) {
    #expect(parseFailureReason(parseResult(text)) == "unpairedSurrogate", "\(text)")
    let lenient = Array(text.utf8).withUnsafeBufferPointer {
      JSONParser.parse(buffer: $0, replacingUnpairedSurrogates: true)
    }
    #expect((try? lenient.get()) == .string(replaced), "\(text)")
  }

  @Test("empty input and whitespace only are 'empty'", arguments: ["", " ", "\n", " \t\r\n "])
  func empty(_ text: String) {
    #expect(parseFailureReason(parseResult(text)) == "empty")
  }

  @Test("error messages give the byte offset")
  func messageOffset() {
    guard case .failure(let error) = parseResult("[1,]") else {
      Issue.record("accepted")
      return
    }
    #expect(error.message.contains("at byte 3"))
  }

  @Test("strings decode escapes, surrogate pairs and \\u0000")
  func stringEscapes() throws {
    #expect(
      try JSONParser.parse(utf8(#""a\"b\\c\/d\be\ff\ng\rh\ti""#))
        == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
    #expect(try JSONParser.parse(utf8(#""\u0041\u00E9\u20ac""#)) == .string("Aé€"))
    #expect(try JSONParser.parse(utf8(#""\uD83D\uDE00""#)) == .string("😀"))
    #expect(try JSONParser.parse(utf8(#""x\u0000y""#)) == .string("x\u{0}y"))
    #expect(try JSONParser.parse(utf8(#""é\n€""#)) == .string("é\n€"))
  }

  @Test(
    "a quote, escape, control character or non-ASCII byte is found at every offset of a long string",
    arguments: [#"\""#, #"\\"#, #"\n"#, "é", "\u{7F}"])
  func longStringsAreScannedExactly(_ special: String) throws {
    // The scanner reads plain runs eight bytes at a time: put the byte at each position of a word.
    for offset in 0..<24 {
      let before = String(repeating: "a", count: offset)
      let after = String(repeating: "b", count: 19)
      let value = try JSONParser.parse(utf8("\"" + before + special + after + "\""))
      let expected =
        before + (try JSONParser.parse(utf8("\"" + special + "\""))).stringValue! + after
      #expect(value == .string(expected), "offset \(offset)")
    }
    for offset in 0..<24 {
      let raw =
        "\"" + String(repeating: "a", count: offset) + "\u{1}" + String(repeating: "b", count: 19)
        + "\""
      #expect(throws: JSONParseError.self, "a raw control byte at \(offset)") {
        try JSONParser.parse(utf8(raw))
      }
    }
    let unterminated = "\"" + String(repeating: "a", count: 40)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(utf8(unterminated)) }
  }

  @Test("structures keep member order and duplicates")
  func structures() throws {
    let value = try JSONParser.parse(utf8(#"{"b":1,"a":[true,null,"x"],"b":2}"#))
    let object = try #require(value.objectValue)
    #expect(object.members.map(\.key) == ["b", "a", "b"])
    #expect(object["b"] == .int(1))
    #expect(object["a"] == [true, nil, "x"])
  }

  @Test(
    "numbers keep their literal text",
    arguments: [
      "1e400", "-1e400", "123456789012345678901234567890", "-0", "0.10", "1E+2", "1e-400",
      "3.14159265358979323846",
      "9007199254740993",
    ])
  func numberLiterals(_ literal: String) throws {
    let value = try JSONParser.parse(utf8(literal))
    guard case .number(let n) = value else {
      Issue.record("not a number: \(value)")
      return
    }
    #expect(n.literal == literal)
    #expect(JSONWriter.string(value) == literal)
    #expect(JSONWriter.string(try JSONParser.parse(utf8("[\(literal)]"))) == "[\(literal)]")
  }

  @Test("nesting up to the limit is accepted, one deeper is 'nestingTooDeep'")
  func nestingLimit() {
    let limit = JSONParser.defaultMaxDepth
    #expect(limit == 64)
    func arrays(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    func objects(_ depth: Int) -> String {
      String(repeating: "{\"a\":", count: depth - 1) + "{}"
        + String(repeating: "}", count: depth - 1)
    }
    #expect(parseFailureReason(parseResult(arrays(limit))) == nil)
    #expect(parseFailureReason(parseResult(arrays(limit + 1))) == "nestingTooDeep")
    #expect(parseFailureReason(parseResult(objects(limit))) == nil)
    #expect(parseFailureReason(parseResult(objects(limit + 1))) == "nestingTooDeep")
    let mixed = String(repeating: "[{\"k\":", count: 32) + "1" + String(repeating: "}]", count: 32)
    #expect(parseFailureReason(parseResult(mixed)) == nil)
    #expect(parseFailureReason(parseResult("[" + mixed + "]")) == "nestingTooDeep")
    #expect(parseFailureReason(parseResult(arrays(100_000))) == "nestingTooDeep")
  }

  @Test("a custom depth limit applies")
  func customDepth() {
    #expect(parseFailureReason(parseResult(bytes: utf8("1"), maxDepth: 0)) == nil)
    #expect(parseFailureReason(parseResult(bytes: utf8("[]"), maxDepth: 0)) == "nestingTooDeep")
    #expect(parseFailureReason(parseResult(bytes: utf8("[[1]]"), maxDepth: 2)) == nil)
    #expect(
      parseFailureReason(parseResult(bytes: utf8("[[[1]]]"), maxDepth: 2)) == "nestingTooDeep")
  }

  @Test(
    "invalid UTF-8 inside a string is 'invalidUTF8'",
    arguments: [
      [0xFF], [0xC0, 0xAF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80],
      [0x80],
      [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
  func invalidUTF8(_ bad: [UInt8]) {
    let quote = UInt8(ascii: "\"")
    // Fast path (no escape), slow path (after an escape), and inside an object key.
    #expect(parseFailureReason(parseResult(bytes: [quote] + bad + [quote])) == "invalidUTF8")
    #expect(
      parseFailureReason(parseResult(bytes: [quote] + utf8("\\n") + bad + [quote])) == "invalidUTF8"
    )
    #expect(
      parseFailureReason(parseResult(bytes: [quote] + bad + utf8("\\n") + [quote])) == "invalidUTF8"
    )
    #expect(
      parseFailureReason(parseResult(bytes: utf8("{\"") + bad + utf8("\":1}"))) == "invalidUTF8")
  }

  @Test("invalid UTF-8 outside strings is a syntax error")
  func invalidUTF8OutsideStrings() {
    #expect(parseFailureReason(parseResult(bytes: [0xFF])) == "syntax")
    #expect(
      parseFailureReason(parseResult(bytes: utf8("[1,") + [0xC3, 0xA9] + utf8("]"))) == "syntax")
  }

  @Test("parses from non-contiguous collections too")
  func nonContiguous() throws {
    let bytes = utf8(#"{"a":[1,2]}"#)
    let lazy = bytes.lazy.map { $0 }
    #expect(try JSONParser.parse(lazy) == ["a": [1, 2]])
    #expect(try JSONParser.parse(bytes[...]) == ["a": [1, 2]])
  }
}
