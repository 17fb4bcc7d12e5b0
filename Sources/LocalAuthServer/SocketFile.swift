import CLocalAuthSystem
import Glibc

/// Prepares the path a socket is bound to: makes its directory and removes a stale socket file
/// (one nobody listens on), refusing to touch anything else.
enum SocketFile {
  static func prepare(_ path: String) throws(SystemError) {
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    if !directory.isEmpty { makeDirectories(directory) }
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard (info.st_mode & S_IFMT) == S_IFSOCK else {
      throw SystemError(call: "bind \(path) (not a socket)", errno: EEXIST)
    }
    let probe = las_connect_unix(path)
    if probe >= 0 {
      _ = close(probe)
      throw SystemError(call: "bind \(path) (another daemon is listening)", errno: EADDRINUSE)
    }
    unlink(path)
  }

  private static func makeDirectories(_ directory: String) {
    var current = ""
    for component in directory.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o755) != 0 && errno != EEXIST { return }
    }
  }
}
