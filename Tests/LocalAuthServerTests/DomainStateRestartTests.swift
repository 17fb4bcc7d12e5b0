import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The domain state an app sees never returns to an old value, across daemon restarts too (Apple:
/// after an enrolment is added and then removed, "the final state would be different").
@Suite(.serialized) struct DomainStateRestartTests {
  func stateHash(_ client: LineClient) throws -> JSONValue? {
    try client.call(Method.domainState)?.object?["biometry"]?.objectValue?["stateHash"]
  }

  @Test func anEnrolmentAddedAndRemovedStaysCountedAfterARestart() throws {
    let daemon = try RunningDaemon(arguments: [], config: DaemonEvaluationTests.instantConfig)
    try daemon.start()
    defer { _ = daemon.stop() }
    var client = try daemon.connect()
    let first = try #require(try stateHash(client))
    _ = try client.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])
    let added = try stateHash(client)
    _ = try client.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "bob"])
    let removed = try stateHash(client)
    #expect(Set([first, added, removed]).count == 3)

    // The same enrolled set as at the first look, after a restart: the count goes on.
    client.close()
    _ = daemon.stop()
    try daemon.start()
    client = try daemon.connect()
    let restarted = try stateHash(client)
    #expect(restarted != first, "an old domain state came back after a restart")
    #expect(restarted == removed, "nothing changed across the restart: the same value")

    // An enrolment made at run time is gone after the next restart (Enrolled= of the
    // configuration): that is one more change, never the value from before it.
    _ = try client.call(Method.sensorsEnroll, ["sensor": "face", "identity": "carol"])
    let carol = try stateHash(client)
    client.close()
    _ = daemon.stop()
    try daemon.start()
    client = try daemon.connect()
    let withoutCarol = try stateHash(client)
    #expect(![first, added, removed, carol].contains(withoutCarol))
    #expect(withoutCarol != nil && withoutCarol != .null)
    client.close()
  }
}
