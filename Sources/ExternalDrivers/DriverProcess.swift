import CDriverProcess
import Glibc

/// One running driver process: its pid and the daemon's ends of its pipes. Not thread-safe; owned by
/// `ExecSensor`'s state lock.
final class DriverProcess {
  let pid: Int32
  let stdinFD: Int32
  let stdoutFD: Int32
  let stderrFD: Int32
  private var closed = false

  /// Starts `command` (absolute path first).
  init(command: [String]) throws(DriverSpawnError) {
    var child = ldp_child()
    var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
    arguments.append(nil)
    defer { for pointer in arguments { free(pointer) } }
    let result = ldp_spawn(&arguments, &child)
    guard result == 0 else { throw DriverSpawnError(errno: -result) }
    pid = child.pid
    stdinFD = child.stdin_fd
    stdoutFD = child.stdout_fd
    stderrFD = child.stderr_fd
  }

  /// Writes one whole line; `.notRead` when the pipe is full (a driver that does not read its input),
  /// `.gone` when its read end is closed (the driver has exited, or is exiting).
  @discardableResult
  func send(_ line: String) -> DriverSendOutcome {
    guard !closed else { return .gone }
    var bytes = Array(line.utf8)
    let written = ldp_write(stdinFD, &bytes, bytes.count)
    if written == bytes.count { return .sent }
    return written == -Int(EPIPE) ? .gone : .notRead
  }

  /// Kills the process group, reaps the process and closes the pipes; returns how it ended. With
  /// `awaitingExit` (its stdout closed: it is usually exiting) it gets a moment to end on its own first.
  func terminate(awaitingExit: Bool) -> String {
    var status: Int32 = 0
    var reaped = false
    for _ in 0..<(awaitingExit ? 50 : 0) {
      if ldp_reap(pid, &status) != 0 {
        reaped = true
        break
      }
      usleep(2_000)
    }
    if !reaped {
      ldp_kill(pid, SIGKILL)
      while ldp_reap(pid, &status) == 0 { usleep(1_000) }
    } else {
      ldp_kill(pid, SIGKILL)  // any children it left in its group
    }
    closePipes()
    if ldp_exited(status) != 0 { return "exited with status \(ldp_exit_code(status))" }
    return "killed by signal \(ldp_term_signal(status))"
  }

  private func closePipes() {
    guard !closed else { return }
    closed = true
    close(stdinFD)
    close(stdoutFD)
    close(stderrFD)
  }
}

/// A driver that could not be started (posix_spawn's errno).
struct DriverSpawnError: Error, CustomStringConvertible {
  let errno: Int32
  var description: String { String(cString: strerror(errno)) }
}

/// How writing a line to a driver went.
enum DriverSendOutcome {
  /// The whole line is in the pipe.
  case sent
  /// The pipe is full or took part of the line: the driver does not read its input (it hangs).
  case notRead
  /// Nobody reads the pipe any more: the driver has exited; its end of output tells how.
  case gone
}
