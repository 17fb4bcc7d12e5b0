import Glibc

/// A datagram socket bound at a temporary path that plays the service manager's `NOTIFY_SOCKET`.
///
/// Owned by one test at a time; not shared across tasks.
final class NotifySocket {
  /// The socket's file system path.
  let path: String
  private let fd: Int32

  /// Binds a fresh `AF_UNIX`/`SOCK_DGRAM` socket in a new temporary directory.
  init() throws {
    var template = Array("/tmp/systemd-tests-XXXXXX".utf8CString)
    guard let directory = mkdtemp(&template) else {
      throw SocketError(call: "mkdtemp", errno: errno)
    }
    path = String(cString: directory) + "/notify"
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else { throw SocketError(call: "bind", errno: errno) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit {
    close(fd)
    unlink(path)
    rmdir(String(path.dropLast("/notify".count)))
  }

  /// Receives one datagram as text; nil after the 5 s receive timeout.
  func receive() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }
}

/// A failed system call in test setup.
struct SocketError: Error {
  /// The C call that failed.
  let call: String
  /// Its errno.
  let errno: Int32
}
