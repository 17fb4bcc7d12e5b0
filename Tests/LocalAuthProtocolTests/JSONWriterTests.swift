import LocalAuthProtocol
import Testing

/// `JSONWriter` escaping and the parse(write(x)) == x round trip.
@Suite("JSONWriter")
struct JSONWriterTests {
  @Test(
    "escapes quotes, backslash and control characters",
    arguments: [
      ("plain", #""plain""#),
      ("a\"b", #""a\"b""#),
      ("a\\b", #""a\\b""#),
      ("line\nbreak", #""line\nbreak""#),
      ("cr\rtab\t", #""cr\rtab\t""#),
      ("\u{0}", #""\u0000""#),
      ("\u{1}\u{8}\u{C}\u{1F}", #""\u0001\u0008\u000c\u001f""#),
      ("/", #""/""#),
      ("\u{7F}", "\"\u{7F}\""),
      ("é€😀", "\"é€😀\""),
      ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
      ("", #""""#),
    ])
  func escaping(_ input: String, _ expected: String) {
    #expect(JSONWriter.string(.string(input)) == expected)
  }

  @Test("a character to escape is escaped at every offset of a string (the eight-byte scan)")
  func escapesAtEveryOffset() {
    for length in 1...20 {
      for offset in 0..<length {
        for (character, escaped) in [("\"", #"\""#), ("\\", #"\\"#), ("\u{1}", #"\u0001"#)] {
          let text =
            String(repeating: "a", count: offset) + character
            + String(repeating: "b", count: length - offset - 1)
          let expected =
            "\"" + String(repeating: "a", count: offset) + escaped
            + String(repeating: "b", count: length - offset - 1) + "\""
          #expect(JSONWriter.string(.string(text)) == expected, "\(length) \(offset)")
        }
      }
    }
  }

  @Test("non-ASCII passes through as raw UTF-8 bytes")
  func nonASCIIBytes() {
    #expect(JSONWriter.encode("é") == [0x22, 0xC3, 0xA9, 0x22])
    #expect(JSONWriter.encode("😀") == [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])
  }

  @Test("writes compact JSON with members in order")
  func compact() {
    let value: JSONValue = ["z": 1, "a": [true, false, nil], "m": ["k": "v"], "e": [], "o": [:]]
    #expect(
      JSONWriter.string(value) == #"{"z":1,"a":[true,false,null],"m":{"k":"v"},"e":[],"o":{}}"#)
    #expect(JSONWriter.string(.object(JSONObject([JSONMember("q\"", "\n")]))) == #"{"q\"":"\n"}"#)
  }

  static let roundTripValues: [JSONValue] = [
    nil, true, false, 0, -1, .int(Int.max), .int(Int.min), .number(JSONNumber(0.5)),
    .number(JSONNumber(-2.25e-7)),
    .number(JSONNumber(1e300)), number("1e400"), number("123456789012345678901234567890"),
    number("-0"),
    "", "text", "quote \" backslash \\ slash /", "\u{0}\u{1}\u{1F}\u{7F}\n\r\t\u{8}\u{C}",
    "é€😀\u{10FFFF}",
    [], [:], [1, "two", [3], ["four": 4]], ["": "", "dup": 1], ["nested": [["deep": [[[nil]]]]]],
    .object(JSONObject([JSONMember("a", 1), JSONMember("a", 2)])),
  ]

  @Test("parse(write(x)) == x", arguments: roundTripValues)
  func roundTrip(_ value: JSONValue) throws {
    let bytes = JSONWriter.encode(value)
    #expect(try JSONParser.parse(bytes) == value)
    // Writing is deterministic and stable.
    #expect(JSONWriter.encode(try JSONParser.parse(bytes)) == bytes)
  }

  @Test("write appends to an existing buffer; raw writes text unchanged")
  func appending() {
    var writer = JSONWriter(capacity: 4)
    writer.write(1)
    writer.raw(",")
    writer.write(string: "x")
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"1,"x""#)
  }
}

/// `JSONValue`, `JSONNumber` and `JSONObject` accessors.
@Suite("JSONValue")
struct JSONValueTests {
  @Test("typed accessors answer only for their own type")
  func accessors() {
    let s: JSONValue = "x"
    #expect(s.stringValue == "x" && s.boolValue == nil && s.intValue == nil && s.objectValue == nil)
    #expect(JSONValue.bool(true).boolValue == true)
    #expect(JSONValue.int(7).intValue == 7 && JSONValue.int(7).doubleValue == 7)
    #expect(JSONValue.array([1]).arrayValue == [1])
    #expect(JSONValue.object(["a": 1]).objectValue?["a"] == 1)
    #expect(JSONValue.null.stringValue == nil)
    let names = ([nil, true, 1, "", [], [:]] as [JSONValue]).map(\.typeName)
    #expect(names == ["null", "boolean", "number", "string", "array", "object"])
  }

  @Test(
    "intValue is the exact integer when it fits",
    arguments: [
      ("0", 0), ("-0", 0), ("42", 42), ("-7", -7), ("1e2", 100), ("1.0", 1), ("2.50e1", 25),
      ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ] as [(String, Int)])
  func intValue(_ literal: String, _ expected: Int) {
    #expect(JSONNumber(validatedLiteral: literal).intValue == expected)
  }

  @Test(
    "intValue is nil for fractions and out-of-range numbers",
    arguments: [
      "0.5", "-1.25", "1e400", "123456789012345678901234567890", "9223372036854775808", "1e19",
      "1e-2",
    ])
  func intValueNil(_ literal: String) {
    #expect(JSONNumber(validatedLiteral: literal).intValue == nil)
  }

  @Test(
    "intValue is exact: no rounding, no lost precision",
    arguments: [
      ("1e-400", nil), ("0.99999999999999999", nil), ("1.0000000000000001", nil), ("1.5", nil),
      ("-0.5e0", nil),
      ("9007199254740993.0", 9_007_199_254_740_993), ("9007199254740993e0", 9_007_199_254_740_993),
      ("9.223372036854775807e18", Int.max), ("9.223372036854775808e18", nil),
      ("-9.223372036854775808e18", Int.min),
      ("1e18", 1_000_000_000_000_000_000), ("1e+2", 100), ("100e-2", 1), ("12.5e1", 125),
      ("0.5e1", 5),
      ("0e5", 0), ("-0.0", 0), ("1e9999", nil), ("1e-9999", nil),
    ] as [(String, Int?)])
  func intValueExact(_ literal: String, _ expected: Int?) {
    #expect(JSONNumber(validatedLiteral: literal).intValue == expected)
  }

  @Test(
    "zero with a huge exponent is still the integer 0",
    arguments: ["0e10000", "0.0e-10000", "-0E99999"])
  func zeroHugeExponent(_ literal: String) {
    #expect(JSONNumber(validatedLiteral: literal).intValue == 0)
  }

  @Test("doubleValue of huge literals is infinite, not nil")
  func doubleValue() {
    #expect(JSONNumber(validatedLiteral: "1e400").doubleValue == .infinity)
    #expect(JSONNumber(validatedLiteral: "0.25").doubleValue == 0.25)
  }

  @Test(
    "JSONNumber(Double) writes integers plainly and others as valid JSON",
    arguments: [
      (0.0, "0"), (-0.0, "0"), (3.0, "3"), (-12.0, "-12"), (0.5, "0.5"), (.infinity, "0"),
      (.nan, "0"),
      (-.infinity, "0"),
    ] as [(Double, String)])
  func doubleLiteral(_ value: Double, _ literal: String) {
    #expect(JSONNumber(value).literal == literal)
  }

  @Test(
    "JSONNumber(Double) literals parse back to the same Double",
    arguments: [1e15, 1e300, 2.5e-7, -1.5, 0.1, Double.leastNonzeroMagnitude])
  func doubleLiteralParses(_ value: Double) throws {
    let literal = JSONNumber(value).literal
    let parsed = try JSONParser.parse(utf8(literal))
    #expect(parsed.doubleValue == value, "\(literal)")
  }

  @Test("JSONObject subscripts read the first member, replace, append and remove")
  func objectSubscript() {
    var object = JSONObject([JSONMember("a", 1), JSONMember("b", 2), JSONMember("a", 3)])
    #expect(object["a"] == 1 && object["missing"] == nil)
    object["a"] = 10
    #expect(object.members.map(\.value) == [10, 2, 3])
    object["c"] = nil
    #expect(!object.contains("c"))
    object["c"] = .null
    #expect(object.contains("c") && object["c"] == .null)
    object["b"] = nil
    #expect(object.members.map(\.key) == ["a", "a", "c"])
    let literal: JSONObject = ["x": 1, "gone": nil, "y": 2]
    #expect(literal.members.map(\.key) == ["x", "y"])
  }
}

/// `JSONObject.kept`: a shared answer's encoding is made once, and is never out of date.
@Suite("JSONObject.kept")
struct KeptEncodingTests {
  @Test("a kept object is written as the same bytes, and equals and hashes as the plain object")
  func keptIsWrittenAsThePlainObject() {
    let plain: JSONObject = [
      "canEvaluate": true, "biometryType": "touchID", "nested": ["a": [1, "\""]],
    ]
    let kept = JSONObject.kept(plain)
    #expect(JSONWriter.encode(.object(kept)) == JSONWriter.encode(.object(plain)))
    #expect(kept == plain)
    #expect(Set([JSONValue.object(kept), .object(plain)]).count == 1)
    let answer: JSONValue = ["result": .object(kept), "after": 1]
    #expect(
      JSONWriter.string(answer)
        == #"{"result":{"canEvaluate":true,"biometryType":"touchID","nested":{"a":[1,"\""]}},"after":1}"#
    )
  }

  @Test("a kept object that is changed is written as it is now")
  func aChangedKeptObjectIsWrittenAfresh() {
    var object = JSONObject.kept(["a": 1])
    object["b"] = 2
    #expect(JSONWriter.string(.object(object)) == #"{"a":1,"b":2}"#)
    object = .kept(["a": 1])
    object["a"] = nil
    #expect(JSONWriter.string(.object(object)) == "{}")
    object = .kept(["a": 1])
    object.members[0].value = "changed"
    #expect(JSONWriter.string(.object(object)) == #"{"a":"changed"}"#)
    object = .kept(["a": 1])
    object.members.append(JSONMember("c", .null))
    #expect(JSONWriter.string(.object(object)) == #"{"a":1,"c":null}"#)
  }
}

/// `JSONObject`'s member names: one rule (`sameName`) for reading, writing and `contains`.
@Suite("JSONObject names")
struct JSONObjectNameTests {
  @Test("reading, writing and contains agree; equivalent names of another UTF-8 length differ")
  func oneRuleForReadingWritingAndContains() {
    let composed = "\u{E9}"  // é, 2 bytes
    let decomposed = "e\u{301}"  // e + combining acute, 3 bytes; equal as Swift strings
    #expect(composed == decomposed)
    var object: JSONObject = [composed: 1]
    #expect(object[decomposed] == nil && !object.contains(decomposed))
    object[decomposed] = 2
    #expect(object.members.count == 2)
    #expect(object[composed] == 1 && object[decomposed] == 2)
    object[composed] = nil
    #expect(object.members.map(\.key) == [decomposed])
    #expect(object.contains(decomposed) && !object.contains(composed))
    let kelvin: JSONObject = ["\u{212A}ey": 1]
    #expect(kelvin["Key"] == nil && !kelvin.contains("Key") && kelvin["\u{212A}ey"] == 1)
    let plain: JSONObject = ["policy": 1, "user": "u"]
    #expect(plain["policy"] == 1 && plain["user"] == "u" && plain["users"] == nil)
  }
}
