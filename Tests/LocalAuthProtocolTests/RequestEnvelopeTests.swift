import Testing

@testable import LocalAuthProtocol

/// The request path's shortcut (`JSONParser.plainRequest`): it takes the plain requests, leaves
/// everything else to the general decoder, and `IncomingFrame.decode` answers every frame as the
/// general decoder alone would.
@Suite("RequestEnvelope")
struct RequestEnvelopeTests {
  @Test(
    "plain requests take the shortcut and decode as the general path decodes them",
    arguments: [
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy","params":{"policy":1}}"#,
      #" { "method" : "a" , "jsonrpc" : "2.0" } "#,
      #"{"jsonrpc":"2.0","id":"x","method":"m","params":[]}"#,
      #"{"jsonrpc":"2.0","id":null,"method":"m","extra":{"a":[1,2]},"idx":3}"#,
      #"{"id":-1.5e3,"jsonrpc":"2.0","method":"m","params":{}}"#,
      #"{"jsonrpc":"2\u002e0","id":1,"method":"m\n"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicyX"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolic\u0079"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.create\"x"}"#,
      #"{"jsonrpc":"2.0","method":"broker.status"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":""# + String(repeating: "context.", count: 40) + #""}"#,
    ])
  func plainRequestsTakeTheShortcut(_ frame: String) throws {
    let request = try #require(plainRequest(frame), "not taken: \(frame)")
    #expect(generalDecode(frame) == .single(.success(request)))
    #expect(decode(frame) == .single(.success(request)))
  }

  @Test(
    "everything else is left to the general path, which decides it as before",
    arguments: [
      #"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m","jsonrpc":"2.0"}"#,
      #"{"jsonrpc":"2.0","\u0069d":1,"method":"m"}"#,
      #"{"jsonrpc":"2.1","id":1,"method":"m"}"#,
      #"{"jsonrpc":"2.00","id":1,"method":"m"}"#,
      #"{"jsonrpc":02.0","id":1,"method":"m"}"#,
      #"{"jsonrpc":"#,
      #"{"id":1,"method":"#,
      #"{"jsonrpc":x2.0","id":1,"method":"m"}"#,
      #"{"jsonrpc":"2.0"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.create"#,
      #"{"jsonrpc":"2.0","id":1,"method":"broker.status","method":"broker.status"}"#,
      #"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":3}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#,
      #"{"jsonrpc":"2.0","method":"m","params":[1]}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":5}"#,
      #"{"jsonrpc":"2.0","id":1}"#,
      #"{"id":1,"method":"m"}"#,
      "{}",
      #"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m"} x"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m""#,
      #"{"jsonrpc":"2.0","id":1,"method":"m",}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[[[[]]]]}}"#,
      "\"just a string\"",
    ])
  func everythingElseGoesTheGeneralWay(_ frame: String) {
    let depth = 3
    #expect(plainRequest(frame, maxDepth: depth) == nil, "taken: \(frame)")
    #expect(decode(frame, maxDepth: depth) == generalDecode(frame, maxDepth: depth))
  }

  @Test("every method name reads as the registry's name")
  func methodNames() throws {
    for name in MethodRegistry.methodNames {
      let frame = #"{"jsonrpc":"2.0","id":1,"method":""# + name + #""}"#
      let request = try #require(plainRequest(frame), "not taken: \(frame)")
      #expect(request.method == name)
      #expect(generalDecode(frame) == .single(.success(request)))
    }
  }

  private func plainRequest(_ frame: String, maxDepth: Int = JSONParser.defaultMaxDepth)
    -> RPCRequest?
  {
    Array(frame.utf8).withUnsafeBufferPointer {
      JSONParser.plainRequest(buffer: $0, maxDepth: maxDepth)
    }
  }

  private func decode(_ frame: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> IncomingFrame
  {
    Array(frame.utf8).withUnsafeBufferPointer {
      IncomingFrame.decode(buffer: $0, maxDepth: maxDepth)
    }
  }

  private func generalDecode(_ frame: String, maxDepth: Int = JSONParser.defaultMaxDepth)
    -> IncomingFrame
  {
    Array(frame.utf8).withUnsafeBufferPointer {
      IncomingFrame.decodeInGeneral(buffer: $0, maxDepth: maxDepth)
    }
  }
}

/// `KnownNames` and the parser's shortcuts for known names and single digits: what they read is
/// what a plain reading of the bytes gives.
@Suite("KnownNames")
struct KnownNamesTests {
  @Test("every name is found by its bytes, and nothing else is")
  func everyNameIsFoundAndNothingElse() {
    let names = ["policy", "user", "context", "userX", "a"]
    let table = KnownNames(names)
    #expect(table.longest == 7)
    for name in names + MethodRegistry.methodNames {
      let known = name.utf8.count <= 7 ? table : KnownNames.methods
      let found = Array(name.utf8).withUnsafeBufferPointer { known.name($0) }
      #expect(found == name)
    }
    for other in ["", "polic", "policyy", "Policy", "usex", "contexts", "b"] {
      #expect(Array(other.utf8).withUnsafeBufferPointer { table.name($0) } == nil, "\(other)")
    }
    #expect(KnownNames([]).name(UnsafeBufferPointer(start: nil, count: 0)) == nil)
  }

  @Test("member names, known or not, escaped or not, and digits read as their plain text")
  func membersAndDigitsReadAsTheirText() throws {
    let frame =
      #"{"policy":1,"pol\u0069cy":2,"policyX":3,"contex":4,"user":"u","requester\"":5,"#
      + #""context":0,"requestID":9,"n":-1,"m":10,"localizedReason":[7,8]}"#
    let object = try #require(try JSONParser.parse(Array(frame.utf8)).objectValue)
    #expect(
      object.members.map(\.key) == [
        "policy", "policy", "policyX", "contex", "user", "requester\"", "context", "requestID", "n",
        "m", "localizedReason",
      ])
    #expect(
      object.members.map { JSONWriter.string($0.value) } == [
        "1", "2", "3", "4", #""u""#, "5", "0", "9", "-1", "10", "[7,8]",
      ])
    #expect(object.members.compactMap(\.value.intValue) == [1, 2, 3, 4, 5, 0, 9, -1, 10])
  }
}

/// `plainRequest(buffer:maxDepth:reusing:)`: the params take the spare storage, and what a spare
/// held before never shows up in a request.
@Suite("RequestEnvelope reusing params storage")
struct ReusedParamsStorageTests {
  static func parse(_ frame: String, reusing spare: inout [JSONMember]) -> RPCRequest? {
    Array(frame.utf8).withUnsafeBufferPointer {
      JSONParser.plainRequest(buffer: $0, maxDepth: JSONParser.defaultMaxDepth, reusing: &spare)
    }
  }

  @Test("the params take the spare's storage and decode as without it")
  func paramsTakeTheSpare() throws {
    let frame = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"policy":1,"context":"c"}}"#
    var spare: [JSONMember] = []
    spare.reserveCapacity(8)
    let request = try #require(Self.parse(frame, reusing: &spare))
    #expect(spare.capacity == 0, "the spare was taken")
    #expect(request.params.members.capacity >= 8)
    var none: [JSONMember] = []
    #expect(request == Self.parse(frame, reusing: &none))
    #expect(none.isEmpty && none.capacity == 0)
  }

  @Test("a spare that still holds members is emptied first; an unused spare is left as it was")
  func aFullSpareIsEmptiedAndAnUnusedOneKept() throws {
    var spare = [JSONMember("stale", 1), JSONMember("policy", 9)]
    let request = try #require(
      Self.parse(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"policy":2}}"#, reusing: &spare))
    #expect(request.params == ["policy": 2])
    var unused: [JSONMember] = []
    unused.reserveCapacity(4)
    let bare = try #require(Self.parse(#"{"jsonrpc":"2.0","method":"m"}"#, reusing: &unused))
    #expect(bare.params.members.isEmpty)
    #expect(unused.isEmpty && unused.capacity >= 4)
    #expect(Self.parse(#"{"jsonrpc":"2.0","id":1,"id":2}"#, reusing: &unused) == nil)
    #expect(unused.isEmpty)
  }
}
