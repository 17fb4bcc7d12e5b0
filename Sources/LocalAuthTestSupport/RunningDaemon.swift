import Foundation
import Glibc

/// A real `localauthd` process on a socket in a fresh temporary directory, with its own state
/// directory, for end-to-end tests. `@unchecked Sendable`: owned by one test at a time, which
/// alone changes it.
public final class RunningDaemon: @unchecked Sendable {
  // Mutated only by the test that owns it.
  /// The temporary directory holding the socket, state and log.
  public let directory: String
  /// The socket path.
  public let socketPath: String
  /// The state directory (rights store, device key).
  public let stateDirectory: String
  /// The stderr log of the daemon.
  public let logPath: String
  private var process: Process? {
    didSet { if let oldValue { lastProcess = oldValue } }
  }
  private var lastProcess: Process?
  private let arguments: [String]
  /// Variables added to (or replacing in) the daemon's environment, e.g. DBUS_SYSTEM_BUS_ADDRESS of
  /// a private bus; read at each start.
  public var extraEnvironment: [String: String]

  /// The daemon binary: LOCALAUTHD_BIN, else `localauthd` beside the test runner.
  public static func binaryPath(
    _ name: String = "localauthd", environment: String = "LOCALAUTHD_BIN"
  ) throws -> String {
    if let path = ProcessInfo.processInfo.environment[environment], !path.isEmpty { return path }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = runner.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw DaemonTestError(
      "cannot find the \(name) binary near \(runner.path); build it or set \(environment)")
  }

  /// Prepares a daemon with extra arguments (`--demo`, the default, adds the demo sensors); `config`,
  /// if given, is written to `localauthd.conf` in the directory and passed with --config;
  /// `environment` adds to (or replaces in) the test's own.
  public init(
    arguments: [String] = ["--demo"], config: DaemonConfig? = nil,
    environment: [String: String] = [:]
  ) throws {
    extraEnvironment = environment
    directory = NSTemporaryDirectory() + "localauthd-test-\(UUID().uuidString.prefix(8))"
    socketPath = directory + "/localauthd.sock"
    stateDirectory = directory + "/state"
    logPath = directory + "/daemon.log"
    try FileManager.default.createDirectory(
      atPath: stateDirectory, withIntermediateDirectories: true)
    var arguments = arguments
    if let config {
      let path = directory + "/localauthd.conf"
      try config.text.write(toFile: path, atomically: true, encoding: .utf8)
      arguments += ["--config", path]
    }
    self.arguments = arguments
  }

  /// The daemon's process id while it runs.
  public var pid: Int32? { process?.processIdentifier }

  /// Starts the daemon and waits until its socket accepts connections.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Self.binaryPath())
    process.arguments =
      arguments + ["--socket", socketPath, "--state-dir", stateDirectory, "--stderr"]
    var environment = ProcessInfo.processInfo.environment
    for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC"] {
      environment[name] = nil
    }
    environment.merge(extraEnvironment) { _, extra in extra }
    process.environment = environment
    if !FileManager.default.fileExists(atPath: logPath) {
      _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }
    let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    logFile.seekToEndOfFile()
    process.standardError = logFile
    process.standardOutput = logFile
    try process.run()
    self.process = process
    var exited = false
    let listening = eventually(blocking: .milliseconds(10)) {
      if let client = try? LineClient(socketPath: socketPath) {
        client.close()
        return true
      }
      exited = !process.isRunning
      return exited
    }
    if listening && !exited { return }
    throw DaemonTestError("localauthd did not start listening on \(socketPath): \(log())")
  }

  /// Sends a signal (SIGKILL after 10 s, scaled, if it does not end) and waits for the process to
  /// exit; returns its exit status (or -signal).
  @discardableResult
  public func stop(signal: Int32 = SIGTERM) -> Int32 {
    guard let process else { return exitStatus ?? 0 }
    if process.isRunning { kill(process.processIdentifier, signal) }
    if !waitForExit(seconds: 10) { kill(process.processIdentifier, SIGKILL) }
    // Bounded: Foundation notices an exit only when every copy of its watch descriptor is closed,
    // so a test must report a missed exit rather than wait for it forever.
    guard waitForExit(seconds: 10) else { return Self.exitNotSeen }
    self.process = nil
    return exitStatus ?? 0
  }

  /// What `stop()` returns when the process was killed but its exit was never seen.
  public static let exitNotSeen: Int32 = -999

  /// Sends a signal without waiting.
  public func signal(_ number: Int32) {
    if let process, process.isRunning { kill(process.processIdentifier, number) }
  }

  /// Waits up to `seconds` (scaled) for the process to end; whether it did.
  @discardableResult
  public func waitForExit(seconds: Double) -> Bool {
    eventually(within: .seconds(seconds), blocking: .milliseconds(5)) {
      !(process?.isRunning ?? false)
    }
  }

  /// How the last process ended: its exit code, or minus the signal that killed it; nil while it runs.
  public var exitStatus: Int32? {
    guard let ended = process ?? lastProcess, !ended.isRunning else { return nil }
    return ended.terminationReason == .exit ? ended.terminationStatus : -ended.terminationStatus
  }

  /// Whether the process is still alive.
  public var isRunning: Bool { process?.isRunning ?? false }

  /// The daemon's log so far.
  public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// The end of the daemon's log (2 KiB), for failure messages.
  public var logTail: String { String(log().suffix(2048)) }

  /// Waits up to `seconds` (scaled) for the log to contain `text` (lines written by other threads,
  /// such as a driver's supervisor, may land just after the answer they explain); whether it did.
  public func waitForLog(containing text: String, seconds: Double = 10) -> Bool {
    eventually(within: .seconds(seconds), blocking: .milliseconds(10)) { log().contains(text) }
  }

  /// `waitForLog` for async tests: sleeps between checks instead of holding a cooperative thread,
  /// so the suite's other tests go on meanwhile (a held thread starves them on a 2-core machine).
  public func logShows(_ text: String, seconds: Double = 10) async -> Bool {
    await eventually(within: .seconds(seconds)) { log().contains(text) }
  }

  /// A new connection to the daemon.
  public func connect() throws -> LineClient { try LineClient(socketPath: socketPath) }

  /// The daemon's resident set size in KiB (/proc/PID/status VmRSS).
  public func residentKiB() -> Int? { pid.flatMap(ProcessMemory.residentKiB(pid:)) }

  deinit {
    stop(signal: SIGKILL)
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// A test set-up failure with its reason.
public struct DaemonTestError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// An error.
  public init(_ description: String) { self.description = description }
}
