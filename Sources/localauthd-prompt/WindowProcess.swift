import DesktopPrompt
import Glibc
import LocalAuthClientCore
import LocalAuthProtocol

/// One run of the window process, `localauthd-prompt-window` (beside this program), which draws
/// the windows with GTK so that the agent links none: started when a prompt arrives, fed
/// `WindowLines` over a socketpair (its standard input and output), and ended by `finish()` once
/// the last window closed (its input ends, it exits). A thread of its own reads what the person
/// did and hands each action to the handler; a typed secret's bytes are lent to it in an array of
/// their own, wiped when it returns, and the read buffer is zeroed as it is consumed. Thread-safe: `send`
/// and `finish` from the screen's lock, the reader alone on its thread.
final class WindowProcess: Sendable {
  /// What the person did: the action, and for a secret its bytes (empty when too long), lent for
  /// the call only (copied into what is sent, never kept: they are wiped when it returns).
  typealias Handler = @Sendable (WindowLines.Action, [UInt8]) -> Void

  /// The process's id.
  let pid: pid_t
  /// The agent's end of the socketpair (close-on-exec: no other child inherits it).
  private let socket: Int32

  /// Starts `localauthd-prompt-window` (posix_spawn) with the socketpair's other end as its
  /// standard input and output, and its reader; nil (said through `note`) when it cannot start.
  /// `ended` is called on the reader's thread once the process is reaped, whyever it ended.
  init?(
    handler: @escaping Handler, note: @escaping @Sendable (String) -> Void,
    ended: @escaping @Sendable (pid_t) -> Void
  ) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0
    else {
      note("cannot start the window program: socketpair: errno \(errno)")
      return nil
    }
    let path = Self.windowProgram()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
    var child: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
    defer { for argument in arguments { free(argument) } }
    let result = posix_spawn(&child, path, &actions, nil, arguments, environ)
    close(ends[1])
    guard result == 0 else {
      close(ends[0])
      note("cannot start the window program \(path): errno \(result)")
      return nil
    }
    let (spawned, end) = (child, ends[0])
    pid = spawned
    socket = end
    ReaderThread.start {
      Self.read(end, pid: spawned, handler: handler, note: note)
      ended(spawned)
    }
  }

  /// `localauthd-prompt-window` in this program's directory (/proc/self/exe).
  static func windowProgram() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let me =
      length > 0
      ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    let directory = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    return (directory.isEmpty ? "/usr/bin" : directory) + "/localauthd-prompt-window"
  }

  /// Sends a line (write(2) until done, retrying EINTR, MSG_NOSIGNAL); a failure means the
  /// process is gone, which its reader says.
  func send(_ line: [UInt8]) {
    var offset = 0
    while offset < line.count {
      let sent = line.withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      if sent <= 0 { return }
      offset += sent
    }
  }

  /// Ends the process's input (shutdown(2) of the writing side): it closes its windows and exits;
  /// its reader then closes the socket and reaps it.
  func finish() { shutdown(socket, Int32(SHUT_WR)) }

  /// The reader: lines in a buffer of its own, zeroed as they are consumed; at the end (the
  /// process exited, or spoke out of protocol and is killed) the socket is closed and the
  /// process reaped (waitpid).
  private static func read(
    _ socket: Int32, pid: pid_t, handler: Handler, note: @Sendable (String) -> Void
  ) {
    let capacity = 4096
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
    buffer.initialize(repeating: 0)
    defer {
      explicit_bzero(buffer.baseAddress!, capacity)
      buffer.deallocate()
    }
    var filled = 0
    reading: while true {
      let got = Glibc.read(socket, buffer.baseAddress! + filled, capacity - filled)
      if got < 0, errno == EINTR { continue }
      if got <= 0 { break }
      filled += got
      var start = 0
      while let newline = buffer[start..<filled].firstIndex(of: UInt8(ascii: "\n")) {
        guard let action = WindowLines.action(buffer[start..<newline]) else {
          note("the window program spoke out of protocol: stopped")
          kill(pid, SIGTERM)
          break reading
        }
        var end = newline + 1
        var secret: [UInt8] = []
        if case .secret(_, let length) = action, length <= WindowLines.secretLimit {
          guard filled - end >= length else { break }  // the secret's bytes are still coming
          secret = Array(buffer[end..<end + length])
          end += length
        }
        handler(action, secret)
        SecretWipe.wipe(&secret)
        start = end
      }
      // What was consumed is moved over and the rest zeroed: no secret byte stays behind.
      let rest = filled - start
      if start > 0 {
        memmove(buffer.baseAddress!, buffer.baseAddress! + start, rest)
        explicit_bzero(buffer.baseAddress! + rest, filled - rest)
        filled = rest
      }
      if filled == capacity {
        note("the window program sent an overlong line: stopped")
        kill(pid, SIGTERM)
        break
      }
    }
    close(socket)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exitStatus = (status >> 8) & 0xFF
    if status & 0x7F != 0 || exitStatus != 0 {
      note(
        "the window program (pid \(pid)) ended with status \(status & 0x7F != 0 ? -(status & 0x7F) : exitStatus)"
      )
    }
  }
}
