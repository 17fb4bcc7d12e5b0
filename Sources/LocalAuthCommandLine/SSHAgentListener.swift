import LocalAuthSocket
import Systemd

#if canImport(Glibc)
  import Glibc
#endif

/// Why the agent cannot listen (exit status 1, the message printed).
public struct SSHAgentListenError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
}

/// The agent's listening socket: made at `--listen PATH` by the daemon's own safe bind
/// (`SocketFile`, LocalAuthSocket: 0600, in a 0700 directory of this user, a stale socket replaced,
/// a live one or another file refused), or the one systemd passes (`localauthd-ssh-agent.socket`).
enum SSHAgentListener {
  /// A blocking listening fd.
  static func open(_ options: SSHAgentOptions) throws(SSHAgentListenError) -> Int32 {
    guard let path = options.listenPath else {
      guard let passed = SocketActivation.takeListenFileDescriptors().first else {
        throw SSHAgentListenError(
          description:
            "no socket: give --listen PATH, or start it from localauthd-ssh-agent.socket")
      }
      try makeBlocking(passed.fd)
      return passed.fd
    }
    let fd: Int32
    do {
      fd = try SocketFile.bind(path, mode: 0o600, backlog: 64, directory: .privateToUser)
    } catch {
      throw SSHAgentListenError(description: error.description)
    }
    try makeBlocking(fd)
    return fd
  }

  private static func makeBlocking(_ fd: Int32) throws(SSHAgentListenError) {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
      throw SSHAgentListenError(description: "cannot configure the listening socket")
    }
  }
}
