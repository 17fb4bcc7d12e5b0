import LocalAuthProtocol
import Testing

/// `ParamReader`: each accessor answers -32602 naming the bad field.
@Suite("ParamReader")
struct ParamReaderTests {
  static let params: JSONObject = [
    "s": "text", "empty": "", "b": true, "n": 7, "f": number("2.5"), "nul": nil, "arr": ["a", "b"],
    "mixed": ["a", 1], "obj": ["k": "v"], "policy": "deviceOwnerAuthentication", "rawPolicy": 1,
    "badPolicy": 9,
  ]
  static let reader = ParamReader(params)

  /// Runs an accessor and returns its error (nil on success).
  static func failure<T>(_ body: () throws(RPCError) -> T) -> RPCError? {
    do throws(RPCError) {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }

  /// Checks that the error is -32602 and names the field in message and data.
  static func expectInvalid(
    _ error: RPCError?, field: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let error else {
      Issue.record("no error for '\(field)'", sourceLocation: sourceLocation)
      return
    }
    #expect(error.code == .invalidParams, sourceLocation: sourceLocation)
    #expect(
      error.message.contains("'\(field)'"), "\(error.message)", sourceLocation: sourceLocation)
    #expect(error.data["field"] == .string(field), sourceLocation: sourceLocation)
    #expect(error.data["name"] == "invalidParams", sourceLocation: sourceLocation)
  }

  @Test("accessors read well-typed values")
  func reads() throws {
    let r = Self.reader
    #expect(try r.string("s") == "text")
    #expect(try r.string("empty") == "")
    #expect(try r.nonEmptyString("s") == "text")
    #expect(try r.optionalString("s") == "text")
    #expect(try r.optionalString("missing") == nil && r.optionalString("nul") == nil)
    #expect(try r.bool("b") == true)
    #expect(try r.optionalBool("b") == true)
    #expect(try r.optionalBool("missing") == nil && r.optionalBool("nul") == nil)
    #expect(try r.optionalInt("n", in: 0...10) == 7)
    #expect(
      try r.optionalInt("missing", in: 0...10) == nil && r.optionalInt("nul", in: 0...10) == nil)
    #expect(try r.optionalDouble("f", in: 0...3) == 2.5)
    #expect(try r.optionalDouble("n", in: 7...7) == 7)
    #expect(try r.optionalDouble("nul", in: 0...1) == nil)
    #expect(try r.policy() == .deviceOwnerAuthentication)
    #expect(try r.policy("rawPolicy") == .deviceOwnerAuthenticationWithBiometrics)
    #expect(try r.strings("arr") == ["a", "b"])
    #expect(try r.object("obj") == ["k": "v"])
  }

  @Test(
    "missing required fields are named",
    arguments: ["string", "nonEmptyString", "bool", "policy", "strings", "object"])
  func missing(_ accessor: String) {
    let r = ParamReader([:])
    let error: RPCError? =
      switch accessor {
      case "string": Self.failure { () throws(RPCError) in try r.string("field") }
      case "nonEmptyString": Self.failure { () throws(RPCError) in try r.nonEmptyString("field") }
      case "bool": Self.failure { () throws(RPCError) in try r.bool("field") }
      case "policy": Self.failure { () throws(RPCError) in try r.policy("field") }
      case "strings": Self.failure { () throws(RPCError) in try r.strings("field") }
      default: Self.failure { () throws(RPCError) in try r.object("field") }
      }
    Self.expectInvalid(error, field: "field")
    #expect(error?.message == "Invalid params: 'field' is required.")
  }

  @Test("wrong types are named with the type found")
  func wrongTypes() {
    let r = Self.reader
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.string("n") }, field: "n")
    #expect(
      Self.failure { () throws(RPCError) in try r.string("n") }?.message
        == "Invalid params: 'n' must be a string, not number.")
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.string("nul") }, field: "nul")
    Self.expectInvalid(
      Self.failure { () throws(RPCError) in try r.optionalString("b") }, field: "b")
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.bool("s") }, field: "s")
    #expect(
      Self.failure { () throws(RPCError) in try r.bool("s") }?.message.contains("not string")
        == true)
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.optionalBool("n") }, field: "n")
    Self.expectInvalid(
      Self.failure { () throws(RPCError) in try r.optionalInt("s", in: 0...9) }, field: "s")
    Self.expectInvalid(
      Self.failure { () throws(RPCError) in try r.optionalDouble("b", in: 0...9) }, field: "b")
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.strings("s") }, field: "s")
    Self.expectInvalid(
      Self.failure { () throws(RPCError) in try r.strings("mixed") }, field: "mixed")
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.object("arr") }, field: "arr")
    #expect(
      Self.failure { () throws(RPCError) in try r.object("arr") }?.message.contains("not array")
        == true)
    Self.expectInvalid(
      Self.failure { () throws(RPCError) in try r.policy("badPolicy") }, field: "badPolicy")
    Self.expectInvalid(Self.failure { () throws(RPCError) in try r.policy("obj") }, field: "obj")
  }

  @Test("an empty string is rejected where a non-empty one is required")
  func nonEmpty() {
    let error = Self.failure { () throws(RPCError) in try Self.reader.nonEmptyString("empty") }
    Self.expectInvalid(error, field: "empty")
    #expect(error?.message == "Invalid params: 'empty' must not be empty.")
  }

  @Test(
    "optionalInt enforces the range and integrality",
    arguments: [
      ("3", 3), ("0", 0), ("10", 10), ("3.0", 3), ("-1", nil), ("11", nil), ("2.5", nil),
      ("1e400", nil),
    ]
      as [(String, Int?)])
  func intRange(_ literal: String, _ expected: Int?) {
    let r = ParamReader(["limit": number(literal)])
    let error = Self.failure { () throws(RPCError) in try r.optionalInt("limit", in: 0...10) }
    if let expected {
      #expect(error == nil)
      #expect((try? r.optionalInt("limit", in: 0...10)) == expected)
    } else {
      Self.expectInvalid(error, field: "limit")
      #expect(error?.message == "Invalid params: 'limit' must be an integer from 0 to 10.")
    }
  }

  @Test(
    "optionalDouble enforces the range",
    arguments: [
      ("0", true), ("0.5", true), ("1", true), ("-0.0001", false), ("1.0001", false),
      ("1e400", false),
      ("-1e400", false),
    ]
      as [(String, Bool)])
  func doubleRange(_ literal: String, _ accepted: Bool) {
    let r = ParamReader(["x": number(literal)])
    let error = Self.failure { () throws(RPCError) in try r.optionalDouble("x", in: 0...1) }
    if accepted { #expect(error == nil) } else { Self.expectInvalid(error, field: "x") }
  }
}

/// `ContextOptions` read from and written to `context.create` params.
@Suite("ContextOptions")
struct ContextOptionsTests {
  static func read(_ params: JSONObject) -> Result<ContextOptions, RPCError> {
    Result { () throws(RPCError) in try ContextOptions(params: params) }
  }

  @Test("empty params give LAContext's defaults")
  func defaults() {
    #expect(Self.read([:]) == .success(ContextOptions()))
    #expect(ContextOptions().reuseDuration == 0 && !ContextOptions().interactionNotAllowed)
  }

  @Test("reuseDuration 0…300 is accepted", arguments: ["0", "1", "0.5", "299.999", "300", "3e2"])
  func reuseAccepted(_ literal: String) {
    let result = Self.read(["reuseDuration": number(literal)])
    #expect((try? result.get().reuseDuration) == Double(literal))
  }

  @Test(
    "reuseDuration outside 0…300 or not a number is -32602 naming it",
    arguments: ["301", "300.01", "-1", "1e400"])
  func reuseRejected(_ literal: String) {
    guard case .failure(let error) = Self.read(["reuseDuration": number(literal)]) else {
      Issue.record("accepted")
      return
    }
    #expect(error.code == .invalidParams)
    #expect(error.data["field"] == "reuseDuration")
    #expect(error.message.contains("'reuseDuration'"))
  }

  @Test(
    "each option with the wrong type is rejected naming it",
    arguments: [
      ("interactionNotAllowed", JSONValue.string("yes")), ("reuseDuration", "10"),
      ("localizedFallbackTitle", 1),
      ("localizedCancelTitle", false),
    ] as [(String, JSONValue)])
  func wrongType(_ key: String, _ value: JSONValue) {
    guard case .failure(let error) = Self.read(JSONObject([JSONMember(key, value)])) else {
      Issue.record("accepted")
      return
    }
    #expect(error.code == .invalidParams && error.data["field"] == .string(key))
  }

  @Test("options round-trip through params")
  func roundTrip() {
    for options in [
      ContextOptions(),
      ContextOptions(
        interactionNotAllowed: true, reuseDuration: 2.5, localizedFallbackTitle: "",
        localizedCancelTitle: "Stop"),
      ContextOptions(reuseDuration: 300, localizedFallbackTitle: "Use Passcode"),
    ] {
      #expect(Self.read(options.params) == .success(options))
    }
    #expect(ContextOptions.maximumReuseDuration == 300)
  }
}
