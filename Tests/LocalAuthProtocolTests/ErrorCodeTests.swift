import LocalAuthProtocol
import Testing

/// `ErrorCode` names and raw values (docs/protocol.md, "Errors") and the `RPCError` object.
@Suite("ErrorCode and RPCError")
struct ErrorCodeTests {
  static let specCodes: [(String, Int, ErrorCode)] = [
    ("authenticationFailed", -1, .authenticationFailed), ("userCancel", -2, .userCancel),
    ("userFallback", -3, .userFallback), ("systemCancel", -4, .systemCancel),
    ("passcodeNotSet", -5, .passcodeNotSet),
    ("biometryNotAvailable", -6, .biometryNotAvailable),
    ("biometryNotEnrolled", -7, .biometryNotEnrolled),
    ("biometryLockout", -8, .biometryLockout), ("appCancel", -9, .appCancel),
    ("invalidContext", -10, .invalidContext),
    ("companionNotAvailable", -11, .companionNotAvailable),
    ("biometryNotPaired", -12, .biometryNotPaired),
    ("biometryDisconnected", -13, .biometryDisconnected),
    ("invalidDimensions", -14, .invalidDimensions),
    ("notInteractive", -1004, .notInteractive), ("alreadyInProgress", -32001, .alreadyInProgress),
    ("queueFull", -32002, .queueFull), ("permissionDenied", -32003, .permissionDenied),
    ("notFound", -32004, .notFound),
  ]
  static let jsonRPCCodes: [(String, Int, ErrorCode)] = [
    ("parseError", -32700, .parseError), ("invalidRequest", -32600, .invalidRequest),
    ("methodNotFound", -32601, .methodNotFound), ("invalidParams", -32602, .invalidParams),
    ("internalError", -32603, .internalError),
  ]

  @Test(
    "every LAError and JSON-RPC name (docs/protocol.md, Errors) maps to its raw value and back",
    arguments: specCodes + jsonRPCCodes)
  func nameAndRawValue(_ name: String, _ raw: Int, _ code: ErrorCode) {
    #expect(code.rawValue == raw)
    #expect(code.name == name)
    #expect(ErrorCode(rawValue: raw) == code)
    #expect(ErrorCode(name: name) == code)
    #expect(code.description == "\(name) (\(raw))")
    #expect(!code.defaultMessage.isEmpty)
  }

  @Test(
    "allNamed starts with the LAError codes in order, holds every named code once, sorted by magnitude"
  )
  func allNamed() {
    let all = ErrorCode.allNamed
    #expect(Array(all.prefix(Self.specCodes.count)) == Self.specCodes.map(\.2))
    for (_, _, code) in Self.specCodes + Self.jsonRPCCodes + Self.extensionCodes {
      #expect(all.filter { $0 == code }.count == 1, "\(code)")
    }
    #expect(all.map { abs($0.rawValue) } == all.map { abs($0.rawValue) }.sorted())
    #expect(Set(all.map(\.name)).count == all.count, "names are unique")
    for code in all {
      #expect(ErrorCode(name: code.name) == code)
      #expect(!code.name.hasPrefix("error-"))
    }
  }

  /// Codes added by later sections (rights), beyond the LAError codes.
  static let extensionCodes: [(String, Int, ErrorCode)] = [
    ("alreadyExists", -32005, .alreadyExists)
  ]

  @Test("codes added for rights keep their names", arguments: extensionCodes)
  func extensionCode(_ name: String, _ raw: Int, _ code: ErrorCode) {
    #expect(code.rawValue == raw && code.name == name && ErrorCode(name: name) == code)
    #expect(!code.isLocalAuthentication)
  }

  @Test(
    "unknown codes are named error<code> and have no name lookup",
    arguments: [-15, -1003, 0, 1, -32099, -32604, 42])
  func unknownCodes(_ raw: Int) {
    let code = ErrorCode(rawValue: raw)
    #expect(code.name == "error\(raw)")
    #expect(ErrorCode(name: code.name) == nil)
    #expect(code.defaultMessage == "Internal error.")
    #expect(!code.isLocalAuthentication)
  }

  @Test(
    "unknown names are rejected",
    arguments: ["", "UserCancel", "usercancel", "userCancel ", "-2", "cancel"])
  func unknownNames(_ name: String) {
    #expect(ErrorCode(name: name) == nil)
  }

  @Test("isLocalAuthentication is true for LAError codes only")
  func isLocalAuthentication() {
    for (_, raw, code) in Self.specCodes {
      #expect(code.isLocalAuthentication == (raw >= -1004), "\(code)")
    }
    for (_, _, code) in Self.jsonRPCCodes { #expect(!code.isLocalAuthentication) }
  }

  @Test("RPCError carries the code's name in data, plus extra members")
  func rpcErrorData() {
    let error = RPCError(.biometryLockout, data: ["requestID": "r-9", "reason": "x"])
    #expect(error.message == "Biometry is locked out.")
    #expect(error.data.members.map(\.key) == ["name", "requestID", "reason"])
    #expect(error.data["name"] == "biometryLockout")
    #expect(error.requestID == "r-9")
    #expect(RPCError(.appCancel).requestID == nil)
    #expect(
      error.json == [
        "code": -8, "message": "Biometry is locked out.",
        "data": ["name": "biometryLockout", "requestID": "r-9", "reason": "x"],
      ])
  }

  @Test("RPCError.invalidParams names the field; invalidRequest carries its reason")
  func rpcErrorFactories() {
    let params = RPCError.invalidParams("policy", "is required")
    #expect(params.code == .invalidParams)
    #expect(params.message == "Invalid params: 'policy' is required.")
    #expect(params.data["field"] == "policy")
    let request = RPCError.invalidRequest("Too big.", reason: "frameTooLarge")
    #expect(request.code == .invalidRequest && request.data["reason"] == "frameTooLarge")
    #expect(!RPCError.invalidRequest("No reason.").data.contains("reason"))
  }

  @Test("RPCError round-trips through its JSON", arguments: specCodes + jsonRPCCodes)
  func rpcErrorRoundTrip(_ name: String, _ raw: Int, _ code: ErrorCode) throws {
    let error = RPCError(code, data: ["requestID": "id-1"])
    #expect(RPCError(json: error.json) == error)
    #expect(RPCError(json: try JSONParser.parse(JSONWriter.encode(error.json))) == error)
  }

  @Test("RPCError(json:) keeps unknown codes")
  func rpcErrorUnknownCode() {
    let error = RPCError(json: ["code": -77, "message": "new"])
    #expect(error?.code.rawValue == -77)
    #expect(error?.data["name"] == "error-77")
    #expect(RPCError(json: ["message": "no code"]) == nil)
    #expect(RPCError(json: "text") == nil)
  }
}
