import Foundation
import LocalAuthClient
import LocalAuthTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A real `localauthd --demo` on a socket in a fresh temporary directory, with its own state directory:
/// the shared `RunningDaemon`, plus client-library connections to it. One per test; `stop()` ends it,
/// `start()` brings it back on the same socket (a restart).
final class DaemonProcess: @unchecked Sendable {
  // Used only by the test that owns it, on one task.
  private let daemon: RunningDaemon

  /// LOCALAUTHCTL_BIN, else `localauthctl` beside the test runner.
  static let controlPath: String? = try? RunningDaemon.binaryPath(
    "localauthctl", environment: "LOCALAUTHCTL_BIN")

  /// A demo daemon; `config`, if given, is its configuration file (the demo sensors stay).
  init(config: String? = nil) throws {
    daemon = try RunningDaemon(arguments: ["--demo"], config: config)
  }

  /// The temporary directory holding the socket and state.
  var directory: URL { URL(fileURLWithPath: daemon.directory) }
  /// The socket path.
  var socketPath: String { daemon.socketPath }

  /// Starts the daemon and waits until its socket accepts connections.
  func start() async throws { try daemon.start() }

  /// Stops the daemon with a signal (SIGKILL: it vanishes without a goodbye) and waits for it.
  func stop(signal: Int32 = SIGTERM) { daemon.stop(signal: signal) }

  /// A connection to this daemon.
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
