import CLocalAuthSystem
import Glibc

/// The one safe way to bind a Unix socket at a path, shared by the daemon (`localauthd`) and the SSH
/// agent (`localauthctl ssh-agent --listen`). It trusts no directory another user controls: the
/// directory chain is opened component by component (made when missing, for the daemon), each one
/// owned by root or this uid and writable by others only with the sticky bit; a stale socket is
/// removed only if it is a socket nobody listens on (a live one, or anything else at the path, is
/// refused); the socket is made owner-only at most (fchmod before bind, leaving the process's umask
/// alone) and then given its mode without following a link. Nobody can swap a link in, take over a
/// live socket, or place the socket in a directory they can rewrite. Call it from any thread.
public enum SocketFile {
  /// What the socket's own directory must be, beyond the trusted chain.
  public enum DirectoryRule: Sendable {
    /// Only the chain rule: the daemon's directory (`/run/localauthd`, or a test's), made when
    /// missing.
    case trustedChain
    /// Also this user's own, with no access for group or others (mode 0700), and already there:
    /// the agent's `--listen PATH`, whose socket holds keys.
    case privateToUser
  }

  /// Binds and listens on `path` with `backlog`, the socket file getting `mode`; returns the
  /// listening descriptor (non-blocking, close-on-exec).
  public static func bind(
    _ path: String, mode: mode_t = 0o666, backlog: Int32 = 1024,
    directory rule: DirectoryRule = .trustedChain
  ) throws(SocketBindError) -> Int32 {
    let (directory, name) = split(path)
    if rule == .privateToUser { try requireExisting(directory) }
    let directoryFD = try openTrusted(directory)
    defer { _ = close(directoryFD) }
    if rule == .privateToUser { try requirePrivate(directoryFD, directory) }
    try clearStale(path, directoryFD: directoryFD, name: name)
    // Made at most owner-only, then given its mode: never more open than asked, even for a moment.
    // Not with umask(2), which is the whole process's: another thread's mkdir would lose its x bits.
    let fd = las_listen_unix_mode(path, backlog, 0o600 & UInt32(mode))
    guard fd >= 0 else { throw SocketBindError("cannot listen on \(path)", errno: -fd) }
    let changed = las_chmod_socket_at(directoryFD, name, UInt32(mode))
    guard changed == 0 else {
      _ = close(fd)
      throw SocketBindError("chmod \(path)", errno: -changed)
    }
    return fd
  }

  private static func openTrusted(_ directory: String) throws(SocketBindError) -> Int32 {
    var problem = [CChar](repeating: 0, count: 512)
    let fd = las_open_trusted_directory(directory, getuid(), &problem, problem.count)
    guard fd >= 0 else {
      let reason = String(decoding: problem.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      throw SocketBindError("refusing socket directory \(directory): \(reason)", errno: -fd)
    }
    return fd
  }

  private static func requireExisting(_ directory: String) throws(SocketBindError) {
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      throw SocketBindError(
        "the socket's directory \(directory) does not exist (make it with mode 0700)",
        errno: errno)
    }
  }

  private static func requirePrivate(_ fd: Int32, _ directory: String) throws(SocketBindError) {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SocketBindError("stat \(directory)", errno: errno) }
    let mode = info.st_mode & 0o7777
    guard info.st_uid == getuid(), mode & 0o077 == 0 else {
      throw SocketBindError(
        "refusing \(directory): the socket's directory must be yours with mode 0700 "
          + "(it is uid \(info.st_uid), mode \(String(mode, radix: 8)))", errno: EPERM)
    }
  }

  /// Removes a socket nobody listens on; refuses a live socket and anything that is not a socket.
  private static func clearStale(_ path: String, directoryFD: Int32, name: String)
    throws(SocketBindError)
  {
    switch las_socket_probe_at(directoryFD, name) {
    case 0: return
    case 1:
      let probe = las_connect_unix(path)
      if probe >= 0 {
        _ = close(probe)
        throw SocketBindError("bind \(path) (another process is listening)", errno: EADDRINUSE)
      }
      _ = las_unlink_at(directoryFD, name)
    case let failure:
      throw SocketBindError("bind \(path) (exists and is not a socket)", errno: -failure)
    }
  }

  private static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}

/// Why a socket could not be bound: what was refused or failed, and the errno.
public struct SocketBindError: Error, Sendable, CustomStringConvertible {
  /// What was refused or which call failed, with the path.
  public var what: String
  /// The errno value.
  public var errno: Int32

  /// A refusal or failure.
  public init(_ what: String, errno: Int32) {
    self.what = what
    self.errno = errno
  }

  /// "bind /run/x.sock (another process is listening): Address already in use".
  public var description: String { "\(what): \(String(cString: strerror(errno)))" }
}
