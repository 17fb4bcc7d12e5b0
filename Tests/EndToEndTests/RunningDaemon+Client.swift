import LocalAuthClient
import LocalAuthTestSupport

/// What the end-to-end tests add to the one daemon runner (`RunningDaemon`, LocalAuthTestSupport):
/// client-library connections to it and scripting its simulated sensors.
extension RunningDaemon {
  /// LOCALAUTHCTL_BIN, else `localauthctl` beside the test runner.
  static let controlPath: String? = try? RunningDaemon.binaryPath(
    "localauthctl", environment: "LOCALAUTHCTL_BIN")

  /// A client-library connection to this daemon.
  func connection(interactive: Bool = true) -> LocalAuthConnection {
    LocalAuthConnection(
      socketPath: socketPath,
      identity: ClientIdentity(name: "client-tests", interactive: interactive))
  }

  /// Queues script commands on a sensor, as an administrator (the tests run as root).
  func script(_ sensor: String, _ commands: [String], replace: Bool = true) async throws {
    let admin = connection()
    defer { admin.disconnect() }
    try await LocalAuthDaemon(connection: admin).script(
      sensor: sensor, commands: commands, replace: replace)
  }
}

/// Collects an evaluation's events until one matches.
func firstEvent(
  of evaluation: LAEvaluation, where matches: @Sendable (LAEvaluationEvent) -> Bool = { _ in true }
) async -> LAEvaluationEvent? {
  for await event in evaluation.events where matches(event) { return event }
  return nil
}
