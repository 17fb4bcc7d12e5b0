/// Why a byte sequence is not acceptable JSON.
public struct JSONParseError: Error, Sendable, Equatable {
  /// A stable, machine-readable reason: "syntax", "invalidUTF8", "unpairedSurrogate",
  /// "nestingTooDeep", "empty".
  public var reason: String
  /// A human-readable explanation with the byte offset.
  public var message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes, hand-written for the hot path (no Foundation).
/// Value type; each parse is independent and may run on any thread.
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let defaultMaxDepth = 64

  /// Parses exactly one JSON value from an array (the server's hot path; no generic dispatch).
  public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
    -> JSONValue
  {
    try bytes.withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }.get()
  }

  /// Parses exactly one JSON value (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONParseError)
    -> JSONValue
  {
    let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable {
      buffer in
      parse(buffer: buffer, maxDepth: maxDepth)
    }
    if let result { return try result.get() }
    let copy = Array(bytes)
    return try copy.withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }.get()
  }

  /// Parses exactly one JSON value from raw bytes. An unpaired surrogate escape fails with reason
  /// "unpairedSurrogate" unless `replacingUnpairedSurrogates`, which puts U+FFFD in its place (so a
  /// server can still read the request's id and answer it).
  public static func parse(
    buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth,
    replacingUnpairedSurrogates: Bool = false
  )
    -> Result<
      JSONValue, JSONParseError
    >
  {
    var scanner = Scanner(
      bytes: buffer, maxDepth: maxDepth, replacesUnpairedSurrogates: replacingUnpairedSurrogates)
    do throws(JSONParseError) {
      scanner.skipWhitespace()
      if scanner.index == buffer.count {
        return .failure(JSONParseError(reason: "empty", message: "empty message"))
      }
      let value = try scanner.value(depth: 0)
      scanner.skipWhitespace()
      if scanner.index != buffer.count { throw scanner.syntax("unexpected data after the value") }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }
}

struct Scanner {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  let replacesUnpairedSurrogates: Bool
  var index = 0
  /// Empty member storage the next object may take instead of allocating its own (the request
  /// path hands back each request's params storage: `JSONParser.plainRequest(buffer:maxDepth:reusing:)`).
  var spareMembers: [JSONMember] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, replacesUnpairedSurrogates: Bool = false) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    self.replacesUnpairedSurrogates = replacesUnpairedSurrogates
  }

  /// An unpaired UTF-16 surrogate escape: valid JSON grammar, but no Unicode text. Strict parsing
  /// fails with reason "unpairedSurrogate"; lenient parsing substitutes U+FFFD and counts it.
  mutating func unpairedSurrogate() throws(JSONParseError) -> UInt32 {
    guard replacesUnpairedSurrogates else {
      throw JSONParseError(
        reason: "unpairedSurrogate", message: "unpaired UTF-16 surrogate escape at byte \(index)")
    }
    return 0xFFFD
  }

  func syntax(_ what: String) -> JSONParseError {
    JSONParseError(reason: "syntax", message: "\(what) at byte \(index)")
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw syntax("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw syntax("unexpected character")
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONParseError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw syntax("unexpected end of input") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw syntax("invalid literal")
    }
    index += count
  }

  mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maxDepth else {
      throw JSONParseError(
        reason: "nestingTooDeep", message: "nesting deeper than \(maxDepth) at byte \(index)")
    }
    index += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(JSONObject(members))
    }
    if spareMembers.capacity > 0 {
      swap(&members, &spareMembers)
    } else {
      // Requests and their params have a handful of members: one allocation instead of regrowing.
      members.reserveCapacity(4)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw syntax("expected a member name")
      }
      let key = try knownString(.members)
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw syntax("expected ':'")
      }
      index += 1
      skipWhitespace()
      members.append(JSONMember(key, try value(depth: depth)))
      skipWhitespace()
      guard index < bytes.count else { throw syntax("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(JSONObject(members))
      } else {
        throw syntax("expected ',' or '}'")
      }
    }
  }

  mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth <= maxDepth else {
      throw JSONParseError(
        reason: "nestingTooDeep", message: "nesting deeper than \(maxDepth) at byte \(index)")
    }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw syntax("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw syntax("expected ',' or ']'")
      }
    }
  }

  mutating func number() throws(JSONParseError) -> JSONNumber {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    // A single digit (an id, a policy) is one of ten numbers made once.
    if index == start + 1 { return JSONNumber.digit(Int(bytes[start] &- UInt8(ascii: "0"))) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    return JSONNumber(validatedLiteral: text)
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// Whether any of the eight bytes may be a quote, a backslash or a control character (below
  /// 0x20). Never false when one is; may be true for a word with none (then it is read byte by
  /// byte). The classic test for a zero byte, applied to `word ^ quote`, `word ^ backslash` and,
  /// for "below 0x20", to the word itself (Hacker's Delight, 6-1; the borrow can only flag a byte
  /// above one that was flagged rightly).
  @inline(__always)
  static func mayEndPlainRun(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl) & highs != 0
  }

  mutating func string() throws(JSONParseError) -> String {
    index += 1
    let start = index
    var ascii = true
    // Fast path: no escapes. Eight bytes at a time while none of them ends the plain run (a
    // hostile client's long titles and payloads: ~1.5 instructions a byte instead of ~10); a word
    // that may hold a quote, a backslash or a control character is looked at byte by byte.
    if let base = bytes.baseAddress {
      var highBits: UInt64 = 0
      while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if Self.mayEndPlainRun(word) { break }
        highBits |= word
        index += 8
      }
      if highBits & 0x8080_8080_8080_8080 != 0 { ascii = false }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if ascii {
          // ASCII is valid UTF-8: copy without validating (the hot path's keys and values).
          return String(unsafeUninitializedCapacity: slice.count) { buffer in
            _ = buffer.initialize(fromContentsOf: slice)
            return slice.count
          }
        }
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw JSONParseError(
            reason: "invalidUTF8", message: "invalid UTF-8 in a string at byte \(start)")
        }
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw syntax("control character in a string") }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw syntax("unterminated string") }
    // Slow path: unescape into a byte buffer.
    var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        guard let text = String(validating: out, as: UTF8.self) else {
          throw JSONParseError(
            reason: "invalidUTF8", message: "invalid UTF-8 in a string at byte \(start)")
        }
        return text
      }
      if byte < 0x20 { throw syntax("control character in a string") }
      if byte != UInt8(ascii: "\\") {
        out.append(byte)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { throw syntax("unterminated string") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          let resume = index
          var low: UInt32 = 0
          if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            low = try hex4()
          }
          if (0xDC00...0xDFFF).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else {
            index = resume
            scalar = try unpairedSurrogate()
          }
        } else if (0xDC00...0xDFFF).contains(scalar) {
          scalar = try unpairedSurrogate()
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw syntax("invalid escape") }
        out.append(contentsOf: UTF8.encode(unicode)!)
      default: throw syntax("invalid escape")
      }
    }
    throw syntax("unterminated string")
  }

  mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw syntax("invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw syntax("invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }
}
