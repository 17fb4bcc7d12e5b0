import Glibc
import LocalAuthTestSupport

/// The hostile-client and fault tests' daemon: the shared `RunningDaemon` with the shape those
/// tests use (a configuration text, a pid, a short log for failure messages).
final class HostileDaemon: @unchecked Sendable {
  // Used from one test at a time.
  private let daemon: RunningDaemon

  /// A daemon with this configuration (and extra environment variables), not yet started.
  init(configuration: String, environment: [String: String] = [:]) throws {
    daemon = try RunningDaemon(arguments: [], config: configuration, environment: environment)
  }

  /// The socket path.
  var socketPath: String { daemon.socketPath }
  /// The state directory (rights store and device key).
  var stateDirectory: String { daemon.stateDirectory }
  /// The running process (0 when none).
  var pid: pid_t { daemon.pid ?? 0 }
  /// How the last process ended (exit code, or minus the signal), nil while it runs.
  var exitStatus: Int32? { daemon.exitStatus }
  /// Whether the process is alive.
  var isRunning: Bool { daemon.isRunning }
  /// VmRSS in KiB, or nil when the process is gone.
  var residentKiB: Int? { daemon.residentKiB() }
  /// The end of the daemon's log, for failure messages.
  var log: String { String(daemon.log().suffix(2048)) }

  /// Starts the daemon and waits until it accepts.
  func start() throws { try daemon.start() }
  /// Sends a signal.
  func signal(_ number: Int32) { daemon.signal(number) }
  /// Waits up to `seconds` for the process to end; true if it did.
  @discardableResult
  func waitForExit(seconds: Double) -> Bool { daemon.waitForExit(seconds: seconds) }
  /// Stops the process (SIGTERM, then SIGKILL).
  func stop() { daemon.stop() }
}

/// A failed step of an end-to-end test, with its reason.
struct HostileError: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
  init(_ description: String) { self.description = description }
}

/// Monotonic seconds.
enum HostileClock {
  /// Now, in seconds since an arbitrary start (CLOCK_MONOTONIC).
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
