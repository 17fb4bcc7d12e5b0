import Glibc

/// Runs `SystemdListenProbe` under `systemd-socket-activate` and reads the report it writes
/// to the first connection. Used by one test at a time.
struct ListenProbeRun {
  /// `systemd-socket-activate` from the systemd package.
  static let activator = "/usr/bin/systemd-socket-activate"

  /// The probe binary, built next to the test bundle.
  static var probePath: String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let exe =
      count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/SystemdListenProbe"
  }

  /// Starts the activator on a fresh socket path with `--fdname=NAME`, connects, returns the probe's line.
  static func report(fdName: String) throws -> String {
    var template = Array("/tmp/systemd-listen-XXXXXX".utf8CString)
    guard let directory = mkdtemp(&template) else {
      throw SocketError(call: "mkdtemp", errno: errno)
    }
    let socketPath = String(cString: directory) + "/probe.sock"
    defer {
      unlink(socketPath)
      rmdir(String(cString: directory))
    }
    let arguments = [activator, "-l", socketPath, "--fdname=\(fdName)", probePath]
    var pid: pid_t = 0
    var argv = arguments.map { strdup($0) } + [nil]
    defer {
      for argument in argv { free(argument) }
    }
    let spawned = posix_spawn(&pid, activator, nil, nil, &argv, environ)
    guard spawned == 0 else { throw SocketError(call: "posix_spawn", errno: spawned) }
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    // The activator binds (the path appears) before it listens: until then a connection is
    // refused, so a refused or missing socket is tried again, for up to five seconds.
    for _ in 0..<500 {
      do {
        return try connectAndRead(socketPath)
      } catch let error as SocketError where error.errno == ECONNREFUSED || error.errno == ENOENT {
        usleep(10_000)
      }
    }
    return try connectAndRead(socketPath)
  }

  /// Connects a stream socket to `path` and reads until end of file.
  private static func connectAndRead(_ path: String) throws -> String {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else { throw SocketError(call: "connect", errno: errno) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
