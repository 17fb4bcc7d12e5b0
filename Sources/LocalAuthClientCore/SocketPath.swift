import FoundationEssentials
import Glibc
import LocalAuthProtocol

/// Where clients find the daemon's socket: `SocketLocation.client`, the rule the daemon's own
/// default follows (an explicit path; else `LOCALAUTHD_SOCKET`; else the socket a daemon run by
/// this user binds, if present; else the service's socket, if present; else the user's default).
/// A per-user socket under /tmp counts only when its directory belongs to this user.
public enum SocketPath {
  /// The system socket under systemd's RuntimeDirectory.
  public static let system = SocketLocation.system

  /// The socket to connect to, resolved now against the given environment and file system.
  public static func resolve(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    uid: UInt32 = getuid(),
    fileExists: (String) -> Bool = SocketPath.isTrustedSocket
  ) -> String {
    SocketLocation.client(
      explicit: explicit, uid: uid, environment: environment, isServing: fileExists)
  }

  /// Whether `path` exists and, unless it is the service's socket under root-owned /run, its
  /// directory belongs to this user or root (so a socket another user planted under /tmp is
  /// never taken for the daemon).
  @Sendable public static func isTrustedSocket(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    if path == system { return true }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    guard stat(directory, &info) == 0 else { return false }
    return info.st_uid == getuid() || info.st_uid == 0
  }
}
