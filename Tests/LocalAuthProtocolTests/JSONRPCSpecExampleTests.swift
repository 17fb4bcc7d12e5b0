import LocalAuthProtocol
import Testing

/// The examples of the JSON-RPC 2.0 specification (section 7), decoded by `IncomingFrame`.
/// Positional params are rejected with -32602 because every method here takes an object.
@Suite("JSON-RPC 2.0 specification examples")
struct JSONRPCSpecExampleTests {
  @Test("rpc call with positional parameters is -32602 carrying the id")
  func positional() {
    for (text, id) in [
      (#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, 1),
      (#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#, 2),
    ] {
      let decoded = rejection(single(text))
      #expect(decoded?.error.code == .invalidParams)
      #expect(decoded?.id == .int(id))
    }
  }

  @Test("rpc call with named parameters")
  func named() {
    let decoded = single(
      #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#
    )
    #expect(
      decoded
        == .success(
          RPCRequest(method: "subtract", params: ["subtrahend": 23, "minuend": 42], id: .int(3))))
    let reordered = single(
      #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#
    )
    #expect(request(reordered)?.params["subtrahend"] == 23)
    #expect(request(reordered)?.id == .int(4))
  }

  @Test("a notification without params")
  func notification() {
    #expect(
      single(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
        == .success(RPCRequest(method: "foobar", id: nil)))
  }

  @Test("a notification is never answered, even when its params are positional")
  func notificationWithPositionalParams() {
    // JSON-RPC 2.0 section 4.1: the server MUST NOT reply to a notification.
    let decoded = rejection(
      single(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#))
    #expect(decoded?.error.code == .invalidParams)
    #expect(decoded?.isNotification == true)
  }

  @Test(
    "invalid requests without an id are not notifications and are answered with id null",
    arguments: [
      #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
      #"{"jsonrpc": "2.0", "method": "m", "params": "bar"}"#,
      #"{"jsonrpc": "1.0", "method": "m"}"#, #"{"foo": "boo"}"#, "1",
    ])
  func invalidWithoutID(_ text: String) {
    let decoded = rejection(single(text))
    #expect(decoded?.error.code == .invalidRequest)
    #expect(decoded?.id == .null)
    #expect(decoded?.isNotification == false)
  }

  @Test(
    "a request with positional params is answered: it is not a notification",
    arguments: ["1", "null", #""a""#])
  func positionalWithID(_ id: String) {
    let decoded = rejection(
      single(#"{"jsonrpc": "2.0", "method": "m", "params": [1], "id": \#(id)}"#))
    #expect(decoded?.error.code == .invalidParams)
    #expect(decoded?.isNotification == false)
  }

  @Test("rpc call with invalid JSON")
  func invalidJSON() {
    let decoded = rejection(
      single(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#))
    #expect(decoded?.error.code == .parseError)
    #expect(decoded?.id == .null)
  }

  @Test("rpc call with an invalid request object")
  func invalidRequestObject() {
    let decoded = rejection(single(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#))
    #expect(decoded?.error.code == .invalidRequest)
    #expect(decoded?.id == .null)
  }

  @Test("rpc call batch with invalid JSON")
  func batchInvalidJSON() {
    let text = """
      [
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method"
      ]
      """
    #expect(rejection(single(text))?.error.code == .parseError)
  }

  @Test("rpc call with an empty array")
  func emptyArray() {
    let decoded = rejection(single("[]"))
    #expect(decoded?.error.code == .invalidRequest)
    #expect(decoded?.id == .null)
  }

  @Test("rpc call with an invalid batch (but not empty)", arguments: [("[1]", 1), ("[1,2,3]", 3)])
  func invalidBatch(_ text: String, _ count: Int) {
    guard case .batch(let elements) = IncomingFrame.decode(utf8(text)) else {
      Issue.record("not a batch")
      return
    }
    #expect(elements.count == count)
    #expect(
      elements.allSatisfy {
        rejection($0)?.error.code == .invalidRequest && rejection($0)?.id == .null
      })
  }

  @Test("rpc call batch")
  func batch() {
    let text = """
      [
          {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
          {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
          {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
          {"foo": "boo"},
          {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
          {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
      ]
      """
    guard case .batch(let elements) = IncomingFrame.decode(utf8(text)), elements.count == 6 else {
      Issue.record("not a batch of six")
      return
    }
    #expect(rejection(elements[0])?.error.code == .invalidParams)
    #expect(rejection(elements[0])?.id == .string("1"))
    #expect(rejection(elements[1])?.isNotification == true, "notify_hello gets no response")
    #expect(rejection(elements[2])?.error.code == .invalidParams)
    #expect(rejection(elements[2])?.id == .string("2"))
    #expect(rejection(elements[3])?.error.code == .invalidRequest)
    #expect(rejection(elements[3])?.id == .null)
    #expect(
      request(elements[4])
        == RPCRequest(method: "foo.get", params: ["name": "myself"], id: .string("5")))
    #expect(request(elements[5]) == RPCRequest(method: "get_data", id: .string("9")))
  }

  @Test("rpc call batch of notifications")
  func batchOfNotifications() {
    let text =
      #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": {"a": 1}}, {"jsonrpc": "2.0", "method": "notify_hello"}]"#
    guard case .batch(let elements) = IncomingFrame.decode(utf8(text)) else {
      Issue.record("not a batch")
      return
    }
    #expect(
      elements.map { request($0) } == [
        RPCRequest(method: "notify_sum", params: ["a": 1], id: nil),
        RPCRequest(method: "notify_hello", id: nil),
      ])
  }

  @Test("rpc call batch (all notifications): nothing is answered")
  func batchAllNotificationsPositional() {
    let text = """
      [
          {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
          {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
      ]
      """
    guard case .batch(let elements) = IncomingFrame.decode(utf8(text)), elements.count == 2 else {
      Issue.record("not a batch of two")
      return
    }
    #expect(elements.allSatisfy { rejection($0)?.isNotification == true })
  }

  @Test("the specification's responses read back with ServerMessage")
  func responses() throws {
    let cases: [(String, ServerMessage)] = [
      (#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#, .response(id: .int(1), .success(19))),
      (#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#, .response(id: .int(2), .success(-19))),
      (
        #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
        .response(id: .string("1"), .failure(RPCError(.methodNotFound, "Method not found")))
      ),
      (
        #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        .response(id: .null, .failure(RPCError(.parseError, "Parse error")))
      ),
    ]
    for (text, expected) in cases {
      #expect(ServerMessage(json: try JSONParser.parse(utf8(text))) == expected, "\(text)")
    }
  }
}
