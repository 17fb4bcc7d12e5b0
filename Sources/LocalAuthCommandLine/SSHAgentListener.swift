import CLocalAuthSystem
import Systemd

#if canImport(Glibc)
  import Glibc
#endif

/// Why the agent cannot listen (exit status 1, the message printed).
public struct SSHAgentListenError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
}

/// The agent's listening socket: made at `--listen PATH` (0600, in a 0700 directory of this user,
/// refused otherwise), or the one systemd passes (`localauthd-ssh-agent.socket`).
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
    try checkDirectory(of: path)
    try removeStaleSocket(path)
    let previous = umask(0o177)
    let fd = las_listen_unix(path, 64)
    umask(previous)
    guard fd >= 0 else {
      throw SSHAgentListenError(
        description: "cannot listen on \(path): \(String(cString: strerror(-fd)))")
    }
    guard chmod(path, 0o600) == 0 else {
      close(fd)
      throw SSHAgentListenError(description: "cannot make \(path) mode 0600")
    }
    try makeBlocking(fd)
    return fd
  }

  /// Refuses a directory that is not a real directory of this user with mode 0700.
  private static func checkDirectory(of path: String) throws(SSHAgentListenError) {
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    var info = stat()
    guard lstat(directory.isEmpty ? "/" : directory, &info) == 0 else {
      throw SSHAgentListenError(
        description: "the socket's directory \(directory) does not exist (make it with mode 0700)")
    }
    let mode = info.st_mode & 0o7777
    guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), mode & 0o077 == 0 else {
      throw SSHAgentListenError(
        description:
          "refusing \(directory): the socket's directory must be yours with mode 0700 "
          + "(it is uid \(info.st_uid), mode \(String(mode, radix: 8)))")
    }
  }

  /// Removes a socket of ours left at `path` by an earlier agent; refuses anything else there.
  private static func removeStaleSocket(_ path: String) throws(SSHAgentListenError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid(), unlink(path) == 0 else {
      throw SSHAgentListenError(description: "refusing \(path): something else is there")
    }
  }

  private static func makeBlocking(_ fd: Int32) throws(SSHAgentListenError) {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
      throw SSHAgentListenError(description: "cannot configure the listening socket")
    }
  }
}
