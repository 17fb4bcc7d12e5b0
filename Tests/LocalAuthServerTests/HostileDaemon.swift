import Glibc
import LocalAuthTestSupport
import Testing

/// A real `localauthd` process for end-to-end tests: a temp directory with its socket, config,
/// STATE_DIRECTORY and RUNTIME_DIRECTORY; spawn, RSS, signals. Used from one test at a time.
final class HostileDaemon: @unchecked Sendable {
  // `pid` and `reaped` change only on the test's own thread (start/stop), never concurrently.
  /// The temp directory holding everything.
  let directory: String
  /// The socket path.
  let socketPath: String
  /// The configuration file.
  let configPath: String
  /// The running process (0 before start).
  private(set) var pid: pid_t = 0
  private var reaped = true
  /// How the last process ended (waitpid status), once reaped.
  private(set) var exitStatus: Int32 = 0

  /// Scales every timeout (env LOCALAUTHD_TEST_TIMEOUT_SCALE, default 1).
  static let timeoutScale: Double = {
    guard let raw = getenv("LOCALAUTHD_TEST_TIMEOUT_SCALE"),
      let value = Double(String(cString: raw))
    else { return 1 }
    return max(value, 0.1)
  }()

  /// The daemon binary: env LOCALAUTHD_BIN, else `localauthd` next to the test bundle (same build products).
  static var binaryPath: String? {
    if let raw = getenv("LOCALAUTHD_BIN") { return String(cString: raw) }
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var candidates: [String] = []
    if count > 0 {
      let exe = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      candidates.append(directoryOf(exe) + "/localauthd")
    }
    if let argument = CommandLine.arguments.first {
      candidates.append(directoryOf(argument) + "/localauthd")
    }
    return candidates.first { access($0, X_OK) == 0 }
  }

  private static func directoryOf(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
  }

  /// Makes the temp directory and writes `configuration`.
  init(configuration: String) throws {
    var template = Array("/tmp/localauthd-e2e.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw HostileError("mkdtemp failed") }
    directory = String(cString: made)
    socketPath = directory + "/localauthd.sock"
    configPath = directory + "/localauthd.conf"
    mkdir(directory + "/state", 0o700)
    mkdir(directory + "/runtime", 0o700)
    let fd = open(configPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw HostileError("cannot write \(configPath)") }
    _ = configuration.utf8CString.withUnsafeBufferPointer {
      write(fd, $0.baseAddress, $0.count - 1)
    }
    close(fd)
  }

  /// Starts the daemon (stderr to `log` in the temp directory) and waits until it accepts.
  func start() throws {
    guard let binary = Self.binaryPath else {
      throw HostileError(
        "localauthd binary not found: build it (swift build) or set LOCALAUTHD_BIN")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(
      &actions, 2, directory + "/log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var environment = [
      "STATE_DIRECTORY=\(directory)/state", "RUNTIME_DIRECTORY=\(directory)/runtime",
    ]
    for name in ["PATH", "HOME", "LD_LIBRARY_PATH"] {
      if let value = getenv(name) { environment.append("\(name)=\(String(cString: value))") }
    }
    let arguments = [binary, "--socket", socketPath, "--stderr", "--config", configPath]
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, binary, &actions, nil, argv, envp)
    guard status == 0 else { throw HostileError("posix_spawn \(binary): \(status)") }
    pid = child
    reaped = false
    let deadline = HostileClock.now() + 10 * Self.timeoutScale
    while HostileClock.now() < deadline {
      if let probe = try? HostileConnection(path: socketPath) {
        probe.close()
        return
      }
      guard isRunning else { throw HostileError("localauthd exited at start: \(log)") }
      usleep(10_000)
    }
    throw HostileError("localauthd did not accept within 10 s")
  }

  /// VmRSS in KiB, or nil when the process is gone.
  var residentKiB: Int? { ProcessMemory.residentKiB(pid: pid) }

  /// Whether the process is alive (reaps it if it ended).
  var isRunning: Bool {
    guard !reaped else { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      reaped = true
      exitStatus = status
      return false
    }
    return true
  }

  /// Sends a signal.
  func signal(_ number: Int32) {
    if !reaped { kill(pid, number) }
  }

  /// Waits up to `seconds` for the process to end; true if it did.
  @discardableResult
  func waitForExit(seconds: Double) -> Bool {
    let deadline = HostileClock.now() + seconds * Self.timeoutScale
    while HostileClock.now() < deadline {
      if !isRunning { return true }
      usleep(5_000)
    }
    return false
  }

  /// The daemon's stderr so far (for failure messages), last 2 KB.
  var log: String {
    let fd = open(directory + "/log", O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fd, &chunk, chunk.count)
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes.suffix(2048), as: UTF8.self)
  }

  /// Stops the process (SIGTERM, then SIGKILL) and removes the temp directory.
  func stop() {
    if !reaped {
      kill(pid, SIGTERM)
      if !waitForExit(seconds: 3) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        reaped = true
      }
    }
    Self.removeTree(directory)
  }

  /// Removes a directory and everything in it (the daemon writes its own state files).
  static func removeTree(_ path: String) {
    guard let directory = opendir(path) else {
      unlink(path)
      return
    }
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != "." && name != ".." else { continue }
      if entry.pointee.d_type == UInt8(DT_DIR) {
        removeTree(path + "/" + name)
      } else {
        unlink(path + "/" + name)
      }
    }
    closedir(directory)
    rmdir(path)
  }

  deinit { stop() }
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
