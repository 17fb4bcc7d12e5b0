/// Reads a method's params object, answering -32602 with a message naming the bad field.
/// Value type; used wherever params are decoded.
public struct ParamReader: Sendable {
  /// The params object.
  public let object: JSONObject

  /// A reader over a params object.
  public init(_ object: JSONObject) { self.object = object }

  /// A required string.
  public func string(_ key: String) throws(RPCError) -> String {
    guard let value = object[key] else { throw .invalidParams(key, "is required") }
    guard case .string(let s) = value else {
      throw .invalidParams(key, "must be a string, not \(value.typeName)")
    }
    return s
  }

  /// A required non-empty string.
  public func nonEmptyString(_ key: String) throws(RPCError) -> String {
    let s = try string(key)
    guard !s.isEmpty else { throw .invalidParams(key, "must not be empty") }
    return s
  }

  /// An optional string (absent or null read as nil).
  public func optionalString(_ key: String) throws(RPCError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    case let value?: throw .invalidParams(key, "must be a string, not \(value.typeName)")
    }
  }

  /// A required Boolean.
  public func bool(_ key: String) throws(RPCError) -> Bool {
    guard let value = object[key] else { throw .invalidParams(key, "is required") }
    guard case .bool(let b) = value else {
      throw .invalidParams(key, "must be a boolean, not \(value.typeName)")
    }
    return b
  }

  /// An optional Boolean.
  public func optionalBool(_ key: String) throws(RPCError) -> Bool? {
    switch object[key] {
    case nil, .null?: return nil
    case .bool(let b)?: return b
    case let value?: throw .invalidParams(key, "must be a boolean, not \(value.typeName)")
    }
  }

  /// An optional integer within a range.
  public func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let n)?:
      guard let i = n.intValue, range.contains(i) else {
        throw .invalidParams(
          key, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
      }
      return i
    case let value?: throw .invalidParams(key, "must be a number, not \(value.typeName)")
    }
  }

  /// An optional number within a range (fractions allowed).
  public func optionalDouble(_ key: String, in range: ClosedRange<Double>) throws(RPCError)
    -> Double?
  {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let n)?:
      guard let d = n.doubleValue, range.contains(d) else {
        throw .invalidParams(
          key, "must be a number from \(range.lowerBound) to \(range.upperBound)")
      }
      return d
    case let value?: throw .invalidParams(key, "must be a number, not \(value.typeName)")
    }
  }

  /// A required policy, by name or raw value.
  public func policy(_ key: String = "policy") throws(RPCError) -> Policy {
    guard let value = object[key] else { throw .invalidParams(key, "is required") }
    guard let policy = Policy(json: value) else {
      throw .invalidParams(
        key,
        "must be a policy name or raw value 1…5 (\(Policy.allCases.map(\.name).joined(separator: ", ")))"
      )
    }
    return policy
  }

  /// A required array of strings.
  public func strings(_ key: String) throws(RPCError) -> [String] {
    guard let value = object[key] else { throw .invalidParams(key, "is required") }
    guard case .array(let elements) = value else {
      throw .invalidParams(key, "must be an array of strings")
    }
    var result: [String] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard case .string(let s) = element else {
        throw .invalidParams(key, "must be an array of strings")
      }
      result.append(s)
    }
    return result
  }

  /// A required object.
  public func object(_ key: String) throws(RPCError) -> JSONObject {
    guard let value = object[key] else { throw .invalidParams(key, "is required") }
    guard case .object(let o) = value else {
      throw .invalidParams(key, "must be an object, not \(value.typeName)")
    }
    return o
  }
}
