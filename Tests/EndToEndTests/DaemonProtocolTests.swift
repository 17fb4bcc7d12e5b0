import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// JSON-RPC 2.0 over the real socket: bad frames get their errors and the connection stays usable.
@Suite(.serialized) struct DaemonProtocolTests {
  let daemon: RunningDaemon

  init() throws {
    daemon = try RunningDaemon(arguments: [], config: DaemonEvaluationTests.instantConfig)
    try daemon.start()
  }

  func expectError(
    _ client: LineClient, _ code: ErrorCode, reason: String? = nil, id: JSONValue = .null
  ) throws {
    let message = try nextAnswer(client)
    #expect(message?["id"] == id)
    let error = message?["error"]?.objectValue
    #expect(error?["code"] == .int(code.rawValue))
    if let reason { #expect(error?["data"]?.objectValue?["reason"] == .string(reason)) }
  }

  /// The next message that is not a notification (an evaluation's progress may come first).
  func nextAnswer(_ client: LineClient) throws -> JSONObject? {
    while let message = try client.readMessage() {
      guard let object = message.objectValue, object["method"] != nil, object["id"] == nil else {
        return message.objectValue
      }
    }
    return nil
  }

  func expectAlive(_ client: LineClient) throws {
    #expect(try client.call(Method.brokerStatus)?.object?["version"] != nil)
  }

  @Test func garbageInvalidUTF8AndDeepNestingEachGetTheirError() throws {
    let client = try daemon.connect()
    try client.send(line: "this is not json")
    try expectError(client, .parseError, reason: "syntax")
    try client.send(
      raw: Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        + [0x0A])
    try expectError(client, .parseError, reason: "invalidUTF8")
    try client.send(line: String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
    try expectError(client, .parseError, reason: "nestingTooDeep")
    try client.send(
      line: #"{"jsonrpc":"2.0","id":99999999999999999999999999999,"method":"broker.status"}"#)
    #expect(try client.readMessage()?.objectValue?["id"]?.doubleValue == 1e29)
    try client.send(line: #"{"jsonrpc":"1.0","id":"x","method":"broker.status"}"#)
    try expectError(client, .invalidRequest, id: "x")
    try client.send(
      line:
        #"{"jsonrpc":"2.0","id":7,"method":"context.evaluatePolicy","params":{"policy":"nope","localizedReason":"r"}}"#
    )
    try expectError(client, .invalidParams, id: 7)
    try expectAlive(client)
  }

  @Test func oversizedFrameIsSkippedToItsNewline() throws {
    let client = try daemon.connect()
    let huge =
      #"{"jsonrpc":"2.0","id":1,"method":"broker.status","params":{"pad":""#
      + String(repeating: "x", count: 70_000) + #""}}"#
    try client.send(line: huge)
    try expectError(client, .invalidRequest, reason: "frameTooLarge")
    try expectAlive(client)
  }

  @Test func frameSplitAcrossManyWritesIsReassembled() throws {
    let client = try daemon.connect()
    let line = Array(#"{"jsonrpc":"2.0","id":"split","method":"broker.status"}"#.utf8) + [0x0A]
    for byte in line {
      try client.send(raw: [byte])
    }
    #expect(try client.readMessage()?.objectValue?["id"] == "split")
  }

  @Test func duplicateIdInFlightIsRejectedAndTheFirstIsUntouched() throws {
    let client = try daemon.connect()
    let params: JSONObject = ["policy": 1, "localizedReason": "dup"]
    try client.request(Method.evaluatePolicy, params, id: .string("same"))
    _ = try client.readMessage()
    try client.request(Method.evaluatePolicy, params, id: .string("same"))
    try expectError(client, .invalidRequest, reason: "duplicateId", id: "same")
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsScript, ["sensor": "face", "commands": ["MATCH"]])
    let answer = try nextAnswer(client)
    #expect(answer?["id"] == "same")
    #expect(answer?["result"]?.objectValue?["sensor"] == "face")
  }

  @Test func batchesAnswerAsOneArrayIncludingDeferredEvaluations() throws {
    let client = try daemon.connect()
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsScript, ["sensor": "face", "commands": ["MATCH"]])
    try client.send(
      line: """
        [{"jsonrpc":"2.0","id":1,"method":"broker.status"},\
        {"jsonrpc":"2.0","method":"broker.status"},\
        {"jsonrpc":"2.0","id":2,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"b"}},\
        {"bogus":true},\
        {"jsonrpc":"2.0","id":3,"method":"nope"}]
        """)
    var batch: [JSONValue]?
    while batch == nil, let message = try client.readMessage() {
      batch = message.arrayValue
    }
    let answers = try #require(batch)
    #expect(answers.count == 4)
    let ids = answers.compactMap { $0.objectValue?["id"] }
    #expect(ids == [1, 2, .null, 3])
    #expect(answers[1].objectValue?["result"]?.objectValue?["sensor"] == "face")
    try client.send(line: "[]")
    try expectError(client, .invalidRequest)
    try client.send(line: #"[{"jsonrpc":"2.0","method":"broker.status"}]"#)
    try expectAlive(client)
  }

  @Test func notificationsGetNoResponse() throws {
    let client = try daemon.connect()
    try client.send(line: #"{"jsonrpc":"2.0","method":"broker.status"}"#)
    try client.send(line: #"{"jsonrpc":"2.0","method":"no.such.method"}"#)
    let next = try client.call(Method.brokerStatus)
    #expect(next?.object != nil)
    #expect(try client.readMessage(seconds: 0.2) == nil)
  }

  @Test func aClientThatNeverReadsDelaysNobody() throws {
    let hog = try daemon.connect()
    let request =
      Array(
        #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy","params":{"policy":1}}"#.utf8
      ) + [0x0A]
    var burst: [UInt8] = []
    for _ in 0..<2000 { burst += request }
    _ = setNonBlockingForTest(hog.fd)
    for _ in 0..<100 {
      _ = burst.withUnsafeBytes {
        send(hog.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
    }
    let polite = try daemon.connect()
    for _ in 0..<20 { try expectAlive(polite) }
    #expect(daemon.isRunning)
  }

  @Test func peersAreIdentifiedByTheKernelNotByTheirClaims() throws {
    let script = """
      import socket, json, sys
      s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
      f.write(b'{"jsonrpc":"2.0","id":1,"method":"session.hello","params":{"client":{"name":"root","appID":"root"},"protocol":1}}\\n')
      f.write(b'{"jsonrpc":"2.0","id":2,"method":"sensors.enroll","params":{"sensor":"face","identity":"mallory"}}\\n'); f.flush()
      f.readline(); print(f.readline().decode().strip())
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script,
      daemon.socketPath,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let answer = try JSONParser.parse(Array(output.utf8)).objectValue
    #expect(answer?["error"]?.objectValue?["code"] == .int(ErrorCode.permissionDenied.rawValue))
    let admin = try daemon.connect()
    let list = try admin.call(Method.sensorsList)?.object?["sensors"]?.arrayValue?.first?
      .objectValue
    #expect(list?["enrolled"] == ["alice"])
  }
}
