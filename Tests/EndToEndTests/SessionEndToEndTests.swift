import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Session-level behaviour against the real daemon: going inactive, and the broker monitor.
@Suite(.serialized)
struct SessionEndToEndTests {
  @Test func goingInactiveEndsTheEvaluationWithSystemCancel() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let connection = daemon.connection()
    let context = LAContext(connection: connection)
    let evaluation = context.startEvaluation(
      .deviceOwnerAuthentication, localizedReason: "background")
    _ = await firstEvent(of: evaluation)
    try await connection.setActive(false)
    let error = await #expect(throws: LAError.self) { try await evaluation.outcome }
    #expect(error?.code == .systemCancel)
    withExtendedLifetime(context) {}
  }

  @Test func theMonitorSeesAnotherClientsEvaluation() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let watcher = daemon.connection()
    let events = try await LocalAuthDaemon(connection: watcher).monitor()
    let success = try await LAContext(connection: daemon.connection()).evaluate(
      .deviceOwnerAuthentication, localizedReason: "watched")
    var seen: [String] = []
    for await event in events where event.requestID == success.requestID {
      seen.append(event.event)
      if event.event == "finished" {
        #expect(event.result == "success")
        break
      }
    }
    #expect(seen.first == "started")
    #expect(seen.last == "finished")
  }
}
