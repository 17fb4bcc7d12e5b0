import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The shared connection across daemon restarts.
@Suite(.serialized)
struct ReconnectEndToEndTests {
  @Test func callsInFlightFailWithSystemCancelAndTheNextCallReconnects() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let connection = daemon.connection()
    let context = LAContext(connection: connection)
    let evaluation = context.startEvaluation(.deviceOwnerAuthentication, localizedReason: "restart")
    _ = await firstEvent(of: evaluation)
    daemon.stop(signal: SIGKILL)
    let error = await #expect(throws: LAError.self) { try await evaluation.outcome }
    #expect(error?.code == .systemCancel)
    #expect(error?.reason == "connectionLost")
    await #expect(throws: ConnectionError.self) {
      try await LocalAuthDaemon(connection: connection).status()
    }

    try daemon.start()
    let status = try await LocalAuthDaemon(connection: connection).status()
    #expect(status.evaluating == 0)
    let success = try await context.evaluate(
      .deviceOwnerAuthentication, localizedReason: "after restart")
    #expect(success.sensor == "face")
  }

  @Test func aStoppingDaemonEndsTheEvaluationWithSystemCancel() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let context = LAContext(connection: daemon.connection())
    let evaluation = context.startEvaluation(
      .deviceOwnerAuthentication, localizedReason: "shutdown")
    _ = await firstEvent(of: evaluation)
    daemon.stop(signal: SIGTERM)
    let error = await #expect(throws: LAError.self) { try await evaluation.outcome }
    #expect(error?.code == .systemCancel)
    #expect(error?.reason == "shutdown")
    withExtendedLifetime(context) {}
  }
}
