import FoundationEssentials

/// Where clients find the daemon's socket (SPEC section 2): an explicit path; else
/// `LOCALAUTHD_SOCKET`; else the system socket if it exists; else the per-user runtime socket.
public enum SocketPath {
  /// The system socket under systemd's RuntimeDirectory.
  public static let system = "/run/localauthd/localauthd.sock"

  /// The socket to connect to, resolved now against the given environment and file system.
  public static func resolve(
    explicit: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
  ) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let fromEnvironment = environment["LOCALAUTHD_SOCKET"], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    if fileExists(system) { return system }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return runtime + "/localauthd/localauthd.sock"
    }
    return system
  }
}
