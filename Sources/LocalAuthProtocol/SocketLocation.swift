/// The one rule for where localauthd's socket is, shared by the daemon (where it binds when not
/// socket-activated and given no `--socket`), the client library and localauthctl (where they
/// connect). Pure: the caller passes the uid, the environment and what exists on disk.
public enum SocketLocation {
  /// The service's socket (systemd's RuntimeDirectory=localauthd, and root's default).
  public static let system = "/run/localauthd/localauthd.sock"
  /// The variable that names a socket for both sides.
  public static let environmentVariable = "LOCALAUTHD_SOCKET"

  /// Where a daemon binds: `LOCALAUTHD_SOCKET`; else systemd's `RUNTIME_DIRECTORY`; else, as
  /// root, the service's socket; else `$XDG_RUNTIME_DIR/localauthd/localauthd.sock`; else
  /// `/tmp/localauthd-UID/localauthd.sock`.
  public static func daemonDefault(uid: UInt32, environment: [String: String]) -> String {
    if let named = nonEmpty(environment[environmentVariable]) { return named }
    if let runtime = nonEmpty(environment["RUNTIME_DIRECTORY"]) {
      let first = runtime.split(separator: ":").first.map(String.init) ?? runtime
      return first + "/localauthd.sock"
    }
    return userDefault(uid: uid, environment: environment)
  }

  /// Where a daemon started by `uid` outside systemd binds (the service's socket for root).
  public static func userDefault(uid: UInt32, environment: [String: String]) -> String {
    if uid == 0 { return system }
    if let runtime = nonEmpty(environment["XDG_RUNTIME_DIR"]) {
      return runtime + "/localauthd/localauthd.sock"
    }
    return "/tmp/localauthd-\(uid)/localauthd.sock"
  }

  /// Where a client connects: `explicit`; else `LOCALAUTHD_SOCKET`; else the socket a daemon
  /// started by this user would bind, if `isServing` says it is there; else the service's
  /// socket, if there; else the user's default (so the "cannot connect" message names it).
  public static func client(
    explicit: String? = nil, uid: UInt32, environment: [String: String],
    isServing: (String) -> Bool
  ) -> String {
    if let explicit = nonEmpty(explicit) { return explicit }
    if let named = nonEmpty(environment[environmentVariable]) { return named }
    let own = userDefault(uid: uid, environment: environment)
    if own != system, isServing(own) { return own }
    if isServing(system) { return system }
    return own
  }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
