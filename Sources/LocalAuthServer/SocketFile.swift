import CLocalAuthSystem
import Glibc

/// Binds the daemon's socket without trusting any directory another user controls: the directory
/// chain is opened component by component (made when missing), each one owned by root or the
/// daemon's uid and writable by others only with the sticky bit; a stale socket is removed only if
/// it is a socket nobody listens on; the mode is set without following a link. Nobody can swap a
/// link in or place the socket in a directory they can rewrite.
enum SocketFile {
  /// Binds and listens on `path`; returns the listening descriptor.
  static func bind(_ path: String, mode: mode_t = 0o666) throws(SystemError) -> Int32 {
    let (directory, name) = split(path)
    var problem = [CChar](repeating: 0, count: 512)
    let directoryFD = las_open_trusted_directory(directory, getuid(), &problem, problem.count)
    guard directoryFD >= 0 else {
      let reason = String(decoding: problem.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      throw SystemError(
        call: "refusing socket directory \(directory): \(reason)", errno: -directoryFD)
    }
    defer { _ = close(directoryFD) }
    switch las_socket_probe_at(directoryFD, name) {
    case 0: break
    case 1:
      let probe = las_connect_unix(path)
      if probe >= 0 {
        _ = close(probe)
        throw SystemError(call: "bind \(path) (another daemon is listening)", errno: EADDRINUSE)
      }
      _ = las_unlink_at(directoryFD, name)
    case let failure:
      throw SystemError(call: "bind \(path) (exists and is not a socket)", errno: -failure)
    }
    let fd = try SystemError.check(las_listen_unix(path, 1024), "bind \(path)")
    let changed = las_chmod_socket_at(directoryFD, name, UInt32(mode))
    guard changed == 0 else {
      _ = close(fd)
      throw SystemError(call: "chmod \(path)", errno: -changed)
    }
    return fd
  }

  private static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}
