/// A JSON value as it stands on the wire, with numbers kept as their literal text
/// so that ids and huge numbers are echoed exactly. Immutable; usable from any thread.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// An integer value.
  public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The Boolean, when this is a Boolean.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The integer, when this is a number that is an exact integer in Int's range.
  public var intValue: Int? {
    if case .number(let n) = self { return n.intValue }
    return nil
  }

  /// The number as a Double, when this is a number.
  public var doubleValue: Double? {
    if case .number(let n) = self { return n.doubleValue }
    return nil
  }

  /// The object, when this is an object.
  public var objectValue: JSONObject? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The JSON type's name, for error messages ("string", "object", …).
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

/// A JSON number kept as its literal text (already validated by the parser or made from a Swift number).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The number's text as it appears in JSON.
  public let literal: String

  /// A number from an integer.
  public init(_ value: Int) { literal = String(value) }

  /// A number from a finite Double (non-finite values become 0, which JSON cannot express otherwise).
  public init(_ value: Double) {
    if !value.isFinite {
      literal = "0"
    } else if value == value.rounded(), abs(value) < 1e15 {
      literal = String(Int(value))
    } else {
      literal = "\(value)"
    }
  }

  /// A number from literal text the caller has validated as JSON.
  public init(validatedLiteral: String) { literal = validatedLiteral }

  /// The value as an Int, when it is an integer literal that fits.
  public var intValue: Int? {
    if let i = Int(literal) { return i }
    return exactInteger(literal)
  }

  /// The number 0…9 (`value`), one of ten made once: the parser's one-digit ids and policies.
  @inline(__always)
  static func digit(_ value: Int) -> JSONNumber { digits[value] }

  private static let digits: [JSONNumber] = (0...9).map { JSONNumber($0) }

  /// The value as a Double (may be infinite for huge literals).
  public var doubleValue: Double? { Double(literal) }

  /// The literal text.
  public var description: String { literal }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
  /// The member's name.
  public var key: String
  /// The member's value.
  public var value: JSONValue

  /// A member with the given name and value.
  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON object that keeps its members in order (encoding is deterministic and readable).
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// The members in order.
  public var members: [JSONMember] {
    didSet { encoded = nil }
  }
  /// The members' compact encoding, kept by `JSONObject.kept(_:)` for an answer many requests
  /// share (`JSONWriter` copies it instead of writing the members again). Any change forgets it.
  private(set) var encoded: [UInt8]?

  /// An object with the given members.
  public init(_ members: [JSONMember] = []) { self.members = members }

  /// `object` with its compact encoding made now and kept: for a value written many times
  /// unchanged, such as a shared answer (the request path's budget is docs/performance.md's).
  public static func kept(_ object: JSONObject) -> JSONObject {
    var kept = object
    kept.encoded = JSONWriter.encode(.object(object))
    return kept
  }

  /// Objects are equal when their members are (the kept encoding is not part of the value).
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }

  /// Hashes the members.
  public func hash(into hasher: inout Hasher) { hasher.combine(members) }

  /// An object from a literal; `nil` values are left out.
  public init(dictionaryLiteral elements: (String, JSONValue?)...) {
    self.init(literal: elements)
  }

  /// The members of a literal, `nil` values left out, in one allocation (answers are built from
  /// literals on the hot path).
  init(literal elements: [(String, JSONValue?)]) {
    members = []
    members.reserveCapacity(elements.count)
    for (key, value) in elements {
      if let value { members.append(JSONMember(key, value)) }
    }
  }

  /// The value of the first member with this name (`sameName`); setting replaces it or appends,
  /// `nil` removes it.
  public subscript(key: String) -> JSONValue? {
    get {
      for member in members where Self.sameName(member.key, key) { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { Self.sameName($0.key, key) }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(JSONMember(key, newValue))
      }
    }
  }

  /// Whether a member with this name exists (even with a null value).
  public func contains(_ key: String) -> Bool { members.contains { Self.sameName($0.key, key) } }

  /// Whether two member names are the same name: equal as Swift strings and of the same length in
  /// UTF-8 bytes. For ASCII names (every name of the protocol) that is the same bytes; it keeps,
  /// for instance, U+212A KELVIN SIGN from standing for K. The length is compared first: it is
  /// cheap, and comparing two different strings as Swift strings is not (make bench-profile).
  @inline(__always)
  static func sameName(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a == b
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer literal.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A Boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An array literal.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// An object literal; `nil` values are left out.
  public init(dictionaryLiteral elements: (String, JSONValue?)...) {
    self = .object(JSONObject(literal: elements))
  }
  /// The null literal.
  public init(nilLiteral: ()) { self = .null }
}

/// The integer a decimal literal with a fraction or exponent stands for, exactly, or nil when it is
/// not an integer or does not fit ("9007199254740993.0" → 9007199254740993, "1e-400" → nil).
private func exactInteger(_ literal: String) -> Int? {
  var text = Substring(literal)
  let negative = text.first == "-"
  if negative { text = text.dropFirst() }
  var exponent = 0
  if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
    let mantissa = text[..<e]
    if mantissa.allSatisfy({ $0 == "0" || $0 == "." }) { return 0 }
    guard let value = Int(text[text.index(after: e)...]), abs(value) < 10_000 else { return nil }
    exponent = value
    text = mantissa
  }
  var digits = text
  if let dot = text.firstIndex(of: ".") {
    let fraction = text[text.index(after: dot)...]
    digits = text[..<dot] + fraction
    exponent -= fraction.count
  }
  var significant = String(digits.drop { $0 == "0" })
  if significant.isEmpty { return 0 }
  while exponent < 0, significant.last == "0" {
    significant.removeLast()
    exponent += 1
  }
  guard exponent >= 0, significant.count + exponent <= 19 else { return nil }
  return Int((negative ? "-" : "") + significant + String(repeating: "0", count: exponent))
}
