import Foundation
import LocalAuthClient
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A real `localauthd --demo` on a socket in a fresh temporary directory, with its own state directory.
/// One per test; `stop()` ends it, `start()` brings it back on the same socket (a restart).
// Mutated only by the test that owns it, on one task.
final class DaemonProcess: @unchecked Sendable {
  let directory: URL
  let socketPath: String
  private var process: Process?

  /// Timeouts scale with LOCALAUTHD_TEST_TIMEOUT_SCALE (default 1).
  static let timeoutScale =
    Double(ProcessInfo.processInfo.environment["LOCALAUTHD_TEST_TIMEOUT_SCALE"] ?? "") ?? 1

  /// LOCALAUTHD_BIN, else `localauthd` next to the test bundle, else the package's build directories.
  static let daemonPath: String? = binary("localauthd", environment: "LOCALAUTHD_BIN")
  /// LOCALAUTHCTL_BIN, else `localauthctl` found like the daemon.
  static let controlPath: String? = binary("localauthctl", environment: "LOCALAUTHCTL_BIN")

  private static func binary(_ name: String, environment: String) -> String? {
    if let path = ProcessInfo.processInfo.environment[environment], !path.isEmpty { return path }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for scratch in [".build-client", ".build"] {
      candidates.append(packageRoot.appendingPathComponent("\(scratch)/debug"))
    }
    return candidates.map { $0.appendingPathComponent(name).path }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "localauthd-client-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)
    socketPath = directory.appendingPathComponent("localauthd.sock").path
  }

  /// Starts the daemon and waits until its socket accepts connections.
  func start() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.daemonPath))
    let state = directory.appendingPathComponent("state").path
    process.arguments = ["--demo", "--socket", socketPath, "--state-dir", state, "--stderr"]
    var environment = ProcessInfo.processInfo.environment
    environment["STATE_DIRECTORY"] = state
    environment["RUNTIME_DIRECTORY"] = directory.path
    environment["NOTIFY_SOCKET"] = nil
    environment["LISTEN_FDS"] = nil
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    self.process = process
    let deadline = ContinuousClock.now + .seconds(10 * Self.timeoutScale)
    while ContinuousClock.now < deadline {
      let probe = LocalAuthConnection(socketPath: socketPath)
      if (try? probe.connect()) != nil {
        probe.disconnect()
        return
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("localauthd did not start listening on \(socketPath)")
  }

  /// Stops the daemon with a signal (SIGKILL: it vanishes without a goodbye) and waits for it.
  func stop(signal: Int32 = SIGTERM) {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    self.process = nil
  }

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
    try await Broker(connection: admin).script(sensor: sensor, commands: commands, replace: replace)
  }

  deinit {
    stop(signal: SIGKILL)
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Waits for a condition, polling; fails the test after the scaled timeout.
func eventually(
  _ what: String, timeout: Double = 5, _ condition: @Sendable () async throws -> Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let deadline = ContinuousClock.now + .seconds(timeout * DaemonProcess.timeoutScale)
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
}

/// Collects an evaluation's events until one matches.
func firstEvent(
  of evaluation: LAEvaluation, where matches: @Sendable (LAEvaluationEvent) -> Bool = { _ in true }
) async -> LAEvaluationEvent? {
  for await event in evaluation.events where matches(event) { return event }
  return nil
}
