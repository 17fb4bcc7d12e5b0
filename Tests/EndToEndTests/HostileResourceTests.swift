import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Resource bounds a long-lived daemon must keep under churn. Each documents a bug found by
/// localauthd-bench (issue 6), now fixed: these keep them fixed.
@Suite(.serialized)
struct HostileResourceTests {
  static let configuration = HostileClientTests.configuration

  @Test("A client may create and invalidate contexts forever (invalidated contexts are freed)")
  func contextChurnOnOneConnection() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration)
    try daemon.start()
    defer { daemon.stop() }
    let client = try HostileConnection(path: daemon.socketPath)
    var failure: String?
    for number in 0..<1_100 {
      let create = #"{"jsonrpc":"2.0","id":\#(number),"method":"context.create","params":{}}"#
      guard let context = client.call(create, id: .int(number))?.result?["context"]?.stringValue
      else {
        failure = "context.create failed after \(number) create/invalidate cycles"
        break
      }
      let invalidate =
        #"{"jsonrpc":"2.0","id":"i","method":"context.invalidate","params":{"context":"\#(context)"}}"#
      _ = client.call(invalidate, id: "i")
    }
    #expect(failure == nil, "\(failure ?? "")")
  }

  @Test("Connection churn does not grow the daemon (no Connection/ClientSession cycle)")
  func connectionChurnKeepsMemoryFlat() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration)
    try daemon.start()
    defer { daemon.stop() }
    let request =
      Array(
        #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy","params":{"policy":1}}"#.utf8
      ) + [0x0A]
    func churn(_ count: Int) throws {
      for _ in 0..<count {
        let client = try HostileConnection(path: daemon.socketPath)
        client.send(request)
        _ = client.readLine()
        client.close()
      }
    }
    /// Whether the daemon has closed every churned connection (only the probe is left).
    func closedAll() -> Bool {
      guard let probe = try? daemon.connect() else { return false }
      defer { probe.close() }
      return (try? probe.call(Method.brokerStatus))?.object?["clients"] == 1
    }
    try churn(2_000)
    #expect(eventually(blocking: .milliseconds(20)) { closedAll() }, "connections left open")
    let before = try #require(daemon.residentKiB())
    try churn(20_000)
    #expect(eventually(blocking: .milliseconds(20)) { closedAll() }, "connections left open")
    let after = try #require(daemon.residentKiB())
    let bytesPerConnection = Double(after - before) * 1024 / 20_000
    #expect(bytesPerConnection < 100, "RSS grew \(after - before) KiB over 20,000 connections")
  }
}
