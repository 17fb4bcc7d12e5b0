import LocalAuthProtocol
import Testing

/// `RPCEncoder` lines read back with `ServerMessage(json:)`, and `RequestID`.
@Suite("RPCEncoder and ServerMessage")
struct RPCEncoderTests {
  static let ids: [RequestID] = [
    .int(1), .int(-9), .string("req-1"), .string(""), .string("q\"uote\n"), .null,
    .number(JSONNumber(validatedLiteral: "1e400")),
    .number(JSONNumber(validatedLiteral: "123456789012345678901234567890")),
  ]

  /// Parses one encoded line: it must end in exactly one newline.
  static func readLine(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ServerMessage?
  {
    #expect(bytes.last == 0x0A, sourceLocation: sourceLocation)
    #expect(
      bytes.dropLast().contains(0x0A) == false, "one line only", sourceLocation: sourceLocation)
    let value = try JSONParser.parse(bytes.dropLast())
    #expect(value.objectValue?["jsonrpc"] == "2.0", sourceLocation: sourceLocation)
    return ServerMessage(json: value)
  }

  @Test("a result line reads back with the same id and result", arguments: ids)
  func result(_ id: RequestID) throws {
    let result: JSONValue = [
      "requestID": "abc", "nested": [1, "two\n", nil], "big": number("1e400"),
    ]
    #expect(
      try Self.readLine(RPCEncoder.result(id: id, result)) == .response(id: id, .success(result)))
    #expect(try Self.readLine(RPCEncoder.result(id: id, nil)) == .response(id: id, .success(nil)))
  }

  @Test("an error line reads back with the same id, code, message and data", arguments: ids)
  func error(_ id: RequestID) throws {
    let error = RPCError(
      .userCancel, "Canceled by user.", data: ["requestID": "r-1", "reason": "x"])
    let message = try Self.readLine(RPCEncoder.error(id: id, error))
    #expect(message == .response(id: id, .failure(error)))
    guard case .response(_, .failure(let decoded))? = message else { return }
    #expect(decoded.data["name"] == "userCancel")
    #expect(decoded.requestID == "r-1")
  }

  @Test("a notification line reads back with its method and params")
  func notification() throws {
    let params: JSONObject = ["requestID": "r", "position": 2]
    let line = RPCEncoder.notification(Notification.queued, params)
    #expect(try Self.readLine(line) == .notification(method: "evaluation.queued", params: params))
    #expect(
      String(decoding: line, as: UTF8.self)
        == "{\"jsonrpc\":\"2.0\",\"method\":\"evaluation.queued\",\"params\":{\"requestID\":\"r\",\"position\":2}}\n"
    )
  }

  @Test("the exact shape of a response line")
  func exactShape() {
    #expect(
      String(decoding: RPCEncoder.result(id: .int(1), ["ok": true]), as: UTF8.self)
        == "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}\n")
    let error = RPCEncoder.error(id: .null, .invalidRequest("Bad.", reason: "frameTooLarge"))
    #expect(
      String(decoding: error, as: UTF8.self)
        == "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Bad.\",\"data\":{\"name\":\"invalidRequest\",\"reason\":\"frameTooLarge\"}}}\n"
    )
  }

  @Test(
    "a kept result is written as the same response as the plain result, for every kind of id",
    arguments: [
      RequestID.int(1), .int(-7), .number(JSONNumber(validatedLiteral: "1e400")),
      .number(JSONNumber(validatedLiteral: "123456789012345678901234567890")), .string("a\"b"),
      .null,
    ])
  func keptResultIsWrittenAsThePlainOne(_ id: RequestID) {
    let plain: JSONObject = ["canEvaluate": true, "biometryType": "faceID"]
    var kept = JSONWriter(appendingTo: Array("prefix".utf8))
    RPCEncoder.write(result: .object(.kept(plain)), id: id, into: &kept)
    var written = JSONWriter(appendingTo: Array("prefix".utf8))
    RPCEncoder.write(result: .object(plain), id: id, into: &written)
    #expect(kept.bytes == written.bytes)
    #expect(
      String(decoding: kept.bytes, as: UTF8.self)
        == #"prefix{"jsonrpc":"2.0","id":\#(id),"result":{"canEvaluate":true,"biometryType":"faceID"}}"#
    )
  }

  @Test("write(result:) and write(error:) append without a newline")
  func writeInto() throws {
    var writer = JSONWriter()
    writer.raw("[")
    RPCEncoder.write(result: 1, id: .int(1), into: &writer)
    writer.raw(",")
    RPCEncoder.write(error: RPCError(.notFound), id: .string("b"), into: &writer)
    writer.raw("]")
    let batch = try #require(try JSONParser.parse(writer.bytes).arrayValue)
    #expect(
      batch.map(ServerMessage.init(json:)) == [
        .response(id: .int(1), .success(1)),
        .response(id: .string("b"), .failure(RPCError(.notFound))),
      ])
  }

  @Test(
    "shapes that are neither response nor notification read as nil",
    arguments: [
      "1", "[]", #"{}"#, #"{"jsonrpc":"2.0","id":1}"#, #"{"jsonrpc":"2.0","id":{},"result":1}"#,
      #"{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}"#,
      #"{"jsonrpc":"2.0","id":1,"error":"text"}"#,
      #"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}"#,
    ])
  func notMessages(_ text: String) throws {
    #expect(ServerMessage(json: try JSONParser.parse(utf8(text))) == nil)
  }

  @Test("an error without data gets the code's name; a notification without params reads as empty")
  func defaults() throws {
    let error = ServerMessage(
      json: try JSONParser.parse(utf8(#"{"jsonrpc":"2.0","id":1,"error":{"code":-9}}"#)))
    #expect(
      error
        == .response(
          id: .int(1), .failure(RPCError(code: -9, message: "", data: ["name": "appCancel"]))))
    let note = ServerMessage(
      json: try JSONParser.parse(utf8(#"{"jsonrpc":"2.0","method":"monitor.event"}"#)))
    #expect(note == .notification(method: "monitor.event", params: [:]))
  }

  @Test("an answer is written as its result or its error line, the same bytes", arguments: ids)
  func answer(_ id: RequestID) {
    let error = RPCError(.userCancel, "Canceled by user.", data: ["requestID": "r-1"])
    let success = EvaluationSuccess(
      requestID: "r-1", policy: .deviceOwnerAuthentication, sensor: "face", reused: false)
    let answers: [(Result<any MethodResult, RPCError>, [UInt8])] = [
      (.success(JSONValue.object(["a": 1])), RPCEncoder.result(id: id, ["a": 1])),
      (.success(success), RPCEncoder.result(id: id, success.json)),
      (.failure(error), RPCEncoder.error(id: id, error)),
    ]
    for (answer, line) in answers {
      var writer = JSONWriter()
      RPCEncoder.write(answer: answer, id: id, into: &writer)
      #expect(writer.bytes + [0x0A] == line)
    }
  }

  @Test("RequestID from JSON accepts string, number and null only")
  func requestIDFromJSON() {
    #expect(RequestID(json: "a") == .string("a"))
    #expect(RequestID(json: 5) == .int(5))
    #expect(RequestID(json: nil) == .null)
    #expect(RequestID(json: true) == nil)
    #expect(RequestID(json: [1]) == nil)
    #expect(RequestID(json: ["a": 1]) == nil)
    #expect(RequestID.int(5).description == "5" && RequestID.string("a\"").description == #""a\"""#)
    #expect(RequestID.null.description == "null")
  }

  @Test("number ids compare by literal: 1 and 1.0 are different ids")
  func numberIDsLiteral() {
    #expect(RequestID.number(JSONNumber(validatedLiteral: "1.0")) != .int(1))
    #expect(Set([RequestID.int(1), .int(1), .string("1")]).count == 2)
  }
}

extension RPCError {
  /// An error with exactly the given members, for comparing decoded errors.
  init(code: Int, message: String, data: JSONObject) {
    self.init(ErrorCode(rawValue: code), message)
    self.data = data
  }
}
