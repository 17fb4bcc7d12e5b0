import Glibc
import SystemFacts

/// A process the bench started (a server under test): spawn, readiness, RSS, stop. Main thread only.
final class ChildProcess {
  /// The process id.
  let pid: pid_t
  private var reaped = false

  /// Starts `arguments[0]` (a path) with the arguments, stdout and stderr sent to `logPath`.
  init(_ arguments: [String], environment extra: [String] = [], logPath: String = "/dev/null")
    throws(BenchError)
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var inherited: [String] = []
    var index = 0
    while let entry = environ[index] {
      inherited.append(String(cString: entry))
      index += 1
    }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = (inherited + extra).map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
    guard status == 0 else {
      throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
    }
    pid = child
  }

  /// Resident memory in KiB (VmRSS of /proc/PID/status), or nil if the process is gone.
  var residentKiB: Int? { ProcessFacts.residentKiB(of: pid) }

  /// CPU time the process has used so far, user and system, all threads (/proc/PID/stat), in
  /// nanoseconds at the kernel's clock-tick resolution (10 ms here); nil if the process is gone.
  var cpuNanoseconds: UInt64? { processCPUNanoseconds(pid) }

  /// Whether the process still runs (not reaped, not a zombie).
  var isRunning: Bool {
    if reaped { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      reaped = true
      return false
    }
    return true
  }

  /// Sends SIGTERM, waits up to two seconds, then SIGKILL, and reaps.
  func stop() {
    guard !reaped else { return }
    kill(pid, SIGTERM)
    let deadline = Clock.nanoseconds() + 2_000_000_000
    while Clock.nanoseconds() < deadline {
      if !isRunning { return }
      Clock.sleep(milliseconds: 5)
    }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    reaped = true
  }

  deinit { stop() }
}

/// A bench failure, with a message for stderr.
struct BenchError: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
  init(_ description: String) { self.description = description }
}

/// Writes a text file whole (truncating); throws on failure.
func writeFile(_ path: String, _ text: String) throws(BenchError) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else {
    throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
  }
  defer { close(fd) }
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes {
      write(fd, $0.baseAddress! + offset, $0.count - offset)
    }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { throw BenchError("cannot write \(path)") }
    offset += written
  }
  bytes.removeAll()
}

/// CPU time (utime + stime, all threads) of a process from /proc/PID/stat, in nanoseconds.
func processCPUNanoseconds(_ pid: pid_t) -> UInt64? {
  guard let text = SmallFile.text("/proc/\(pid)/stat"),
    let close = text.utf8.lastIndex(of: UInt8(ascii: ")"))
  else { return nil }
  // After "pid (comm)": state is field 3, utime field 14, stime field 15.
  let fields = text[text.index(after: close)...].split(separator: " ")
  guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
    return nil
  }
  let ticks = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
  return (user + system) * 1_000_000_000 / ticks
}
