import LocalAuthProtocol
import Testing

/// `IncomingFrame.decode`: the JSON-RPC 2.0 envelope rules for single messages and batches.
@Suite("IncomingFrame")
struct IncomingFrameTests {
  @Test("a request with named params decodes with its id")
  func validRequest() {
    let decoded = single(
      #"{"jsonrpc":"2.0","method":"context.create","params":{"reuseDuration":5},"id":7}"#)
    #expect(
      decoded
        == .success(RPCRequest(method: "context.create", params: ["reuseDuration": 5], id: .int(7)))
    )
  }

  @Test("absent params and an empty params array read as an empty object")
  func absentParams() {
    #expect(request(single(#"{"jsonrpc":"2.0","method":"m","id":"a"}"#))?.params == [:])
    #expect(request(single(#"{"jsonrpc":"2.0","method":"m","params":[],"id":"a"}"#))?.params == [:])
  }

  @Test("a message without id is a notification; id null is a request")
  func notification() {
    #expect(request(single(#"{"jsonrpc":"2.0","method":"m"}"#)) == RPCRequest(method: "m", id: nil))
    #expect(
      request(single(#"{"jsonrpc":"2.0","method":"m","id":null}"#))
        == RPCRequest(method: "m", id: .null))
  }

  @Test(
    "string and number ids are kept exactly",
    arguments: [
      (#""abc""#, RequestID.string("abc")), (#""""#, .string("")), ("1", .int(1)), ("-5", .int(-5)),
      ("1.5", .number(JSONNumber(validatedLiteral: "1.5"))),
      ("1e400", .number(JSONNumber(validatedLiteral: "1e400"))),
      (
        "123456789012345678901234567890",
        .number(JSONNumber(validatedLiteral: "123456789012345678901234567890"))
      ),
    ])
  func idTypes(_ idText: String, _ expected: RequestID) {
    let decoded = request(single(#"{"jsonrpc":"2.0","method":"m","id":\#(idText)}"#))
    #expect(decoded?.id == expected)
    #expect(decoded?.id?.description == idText)
  }

  @Test(
    "object, array and boolean ids are invalid requests answered with id null",
    arguments: ["{}", "[1]", "[]", "true", "false"])
  func invalidIDTypes(_ idText: String) {
    let decoded = rejection(single(#"{"jsonrpc":"2.0","method":"m","id":\#(idText)}"#))
    #expect(decoded?.id == .null)
    #expect(decoded?.error.code == .invalidRequest)
  }

  @Test(
    "a missing or wrong jsonrpc member is -32600 carrying the readable id",
    arguments: [
      #"{"method":"m","id":3}"#, #"{"jsonrpc":"1.0","method":"m","id":3}"#,
      #"{"jsonrpc":2.0,"method":"m","id":3}"#,
      #"{"jsonrpc":"2.00","method":"m","id":3}"#, #"{"jsonrpc":null,"method":"m","id":3}"#,
    ])
  func wrongVersion(_ text: String) {
    let decoded = rejection(single(text))
    #expect(decoded?.id == .int(3))
    #expect(decoded?.error.code == .invalidRequest)
    #expect(decoded?.error.message.contains("jsonrpc") == true)
    #expect(decoded?.error.data["name"] == "invalidRequest")
  }

  @Test("a wrong jsonrpc with an unreadable id is answered with id null")
  func wrongVersionBadID() {
    #expect(rejection(single(#"{"jsonrpc":"1.0","method":"m","id":{}}"#))?.id == .null)
    #expect(rejection(single(#"{"jsonrpc":"1.0","method":"m"}"#))?.id == .null)
  }

  @Test(
    "method must be a string",
    arguments: [#""method":1,"#, #""method":null,"#, #""method":["m"],"#, ""])
  func methodNotString(_ member: String) {
    let decoded = rejection(single(#"{"jsonrpc":"2.0",\#(member)"id":"x"}"#))
    #expect(decoded?.id == .string("x"))
    #expect(decoded?.error.code == .invalidRequest)
    #expect(decoded?.error.message.contains("method") == true)
  }

  @Test("positional (non-empty array) params are -32602 with the id")
  func positionalParams() {
    let decoded = rejection(single(#"{"jsonrpc":"2.0","method":"m","params":[1,2],"id":4}"#))
    #expect(decoded?.id == .int(4))
    #expect(decoded?.error.code == .invalidParams)
  }

  @Test(
    "params that are neither object nor array are -32600 with the id",
    arguments: ["1", #""s""#, "true", "null"])
  func scalarParams(_ params: String) {
    let decoded = rejection(single(#"{"jsonrpc":"2.0","method":"m","params":\#(params),"id":4}"#))
    #expect(decoded?.id == .int(4))
    #expect(decoded?.error.code == .invalidRequest)
  }

  @Test(
    "unparsable frames are -32700 with id null and the parser's reason",
    arguments: [
      ("{", "syntax"), ("", "empty"),
      (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), "nestingTooDeep"),
    ])
  func parseError(_ text: String, _ reason: String) {
    let decoded = rejection(single(text))
    #expect(decoded?.id == .null)
    #expect(decoded?.error.code == .parseError)
    #expect(decoded?.error.data["reason"] == .string(reason))
    #expect(decoded?.error.data["name"] == "parseError")
  }

  @Test("invalid UTF-8 in a frame is -32700 with reason invalidUTF8")
  func invalidUTF8Frame() {
    guard
      case .single(.failure(let rejection)) = IncomingFrame.decode(
        utf8(#"{"jsonrpc":"2.0","method":""#) + [0xFF] + utf8(#""}"#))
    else {
      Issue.record("accepted")
      return
    }
    #expect(rejection.error.code == .parseError)
    #expect(rejection.error.data["reason"] == "invalidUTF8")
  }

  @Test("a non-object message is -32600 with id null", arguments: ["1", #""req""#, "null", "true"])
  func nonObject(_ text: String) {
    let decoded = rejection(single(text))
    #expect(decoded?.id == .null)
    #expect(decoded?.error.code == .invalidRequest)
  }

  @Test("an empty batch is one -32600 with id null, not a batch")
  func emptyBatch() {
    let decoded = rejection(single("[ ]"))
    #expect(decoded?.id == .null)
    #expect(decoded?.error.code == .invalidRequest)
  }

  @Test("[1,2,3] is a batch of three -32600 errors with id null")
  func batchOfNumbers() {
    guard case .batch(let elements) = IncomingFrame.decode(utf8("[1,2,3]")) else {
      Issue.record("not a batch")
      return
    }
    #expect(elements.count == 3)
    for element in elements {
      #expect(rejection(element)?.id == .null)
      #expect(rejection(element)?.error.code == .invalidRequest)
    }
  }

  @Test("a mixed batch decodes each element on its own, in order")
  func mixedBatch() {
    let text = """
      [{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"},{"foo":"boo"},\
      {"jsonrpc":"2.0","method":"c","params":[1],"id":"x"},[{"jsonrpc":"2.0","method":"d","id":2}],\
      {"jsonrpc":"1.0","method":"e","id":5}]
      """
    guard case .batch(let elements) = IncomingFrame.decode(utf8(text)) else {
      Issue.record("not a batch")
      return
    }
    #expect(elements.count == 6)
    guard elements.count == 6 else { return }
    #expect(request(elements[0]) == RPCRequest(method: "a", id: .int(1)))
    #expect(request(elements[1]) == RPCRequest(method: "b", id: nil))
    #expect(rejection(elements[2])?.error.code == .invalidRequest)
    #expect(rejection(elements[2])?.id == .null)
    #expect(rejection(elements[3])?.error.code == .invalidParams)
    #expect(rejection(elements[3])?.id == .string("x"))
    #expect(
      rejection(elements[4])?.error.code == .invalidRequest, "nested batches are not requests")
    #expect(rejection(elements[4])?.id == .null)
    #expect(rejection(elements[5])?.id == .int(5))
  }

  @Test("a batch of one is still a batch")
  func batchOfOne() {
    #expect(
      IncomingFrame.decode(utf8(#"[{"jsonrpc":"2.0","method":"a","id":1}]"#))
        == .batch([.success(RPCRequest(method: "a", id: .int(1)))]))
  }

  @Test(
    "RPCRequest.json decodes back to the same request",
    arguments: [RequestID.int(1), .string("s"), .null])
  func requestRoundTrip(_ id: RequestID) {
    let original = RPCRequest(
      method: "context.evaluatePolicy", params: ["policy": 2, "localizedReason": "why"], id: id)
    #expect(IncomingFrame.decodeRequest(original.json) == .success(original))
    let notification = RPCRequest(method: "n", params: [:], id: nil)
    #expect(IncomingFrame.decodeRequest(notification.json) == .success(notification))
    #expect(IncomingFrame.decode(JSONWriter.encode(original.json)) == .single(.success(original)))
  }

  @Test("valid JSON with an unpaired surrogate is refused with invalid params and its own id")
  func unpairedSurrogateKeepsTheID() {
    let refused = single(
      #"{"jsonrpc":"2.0","method":"context.evaluatePolicy","params":{"policy":2,"localizedReason":"\ud800"},"id":41}"#
    )
    guard case .failure(let rejection) = refused else {
      Issue.record("accepted a request with an unpaired surrogate")
      return
    }
    #expect(rejection.id == .int(41))
    #expect(rejection.error.code == .invalidParams)
    #expect(rejection.error.data["reason"] == "unpairedSurrogate")
    #expect(!rejection.isNotification)
    let batch = IncomingFrame.decode(
      Array(
        #"[{"jsonrpc":"2.0","method":"m","params":{"a":"\udc00"},"id":"x"},{"jsonrpc":"2.0","method":"n"}]"#
          .utf8))
    guard case .batch(let elements) = batch else {
      Issue.record("a batch with an unpaired surrogate is not answered per element")
      return
    }
    #expect(elements.map { (try? $0.get()) == nil } == [true, true])
    if case .failure(let first) = elements[0] { #expect(first.id == .string("x")) }
    if case .failure(let second) = elements[1] { #expect(second.isNotification) }
    // Not valid JSON even with the surrogate replaced: still a parse error with id null.
    if case .single(.failure(let broken)) = IncomingFrame.decode(
      Array(#"{"jsonrpc":"2.0","id":3,"method":"\ud800\x"}"#.utf8))
    {
      #expect(broken.error.code == .parseError)
      #expect(broken.id == .null)
    } else {
      Issue.record("a malformed frame was not a parse error")
    }
  }
}
