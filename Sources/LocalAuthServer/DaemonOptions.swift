import Glibc
import LocalAuthProtocol

/// The daemon's command line.
public struct DaemonOptions: Sendable, Equatable {
  /// --socket PATH
  public var socketPath: String?
  /// --config FILE (default /etc/localauthd/localauthd.conf, optional)
  public var configPath: String?
  /// --demo: an enrolled face that matches after a second, passcode printed at start.
  public var demo = false
  /// --state-dir DIR (default $STATE_DIRECTORY, else /var/lib/localauthd or a user-local directory)
  public var stateDirectory: String?
  /// --check-config: read the configuration, report, exit.
  public var checkConfigOnly = false
  /// --stderr: log to stderr even when a journal is there.
  public var forceStderr = false
  /// --migrate-device-key: seal the store's device key by the TPM, remove device.key, exit (root).
  public var migrateDeviceKey = false

  /// The default configuration file.
  public static let defaultConfigPath = "/etc/localauthd/localauthd.conf"

  /// The usage text.
  public static let usage = """
    Usage: localauthd [OPTIONS]

    The LocalAuthentication broker: serves JSON-RPC 2.0 on a Unix socket.

    Options:
      --socket PATH      Listen on PATH (default: socket activation, else
                         $LOCALAUTHD_SOCKET, else /run/localauthd/localauthd.sock
                         as root, else $XDG_RUNTIME_DIR/localauthd/localauthd.sock,
                         else /tmp/localauthd-UID/localauthd.sock)
      --config FILE      Read FILE (default /etc/localauthd/localauthd.conf if present)
      --demo             Demo sensors: an enrolled face matching after ~1 s, passcode 1234
      --state-dir DIR    Keep persistent state in DIR (default $STATE_DIRECTORY)
      --check-config     Read the configuration, report problems, and exit
      --migrate-device-key
                         Root only: seal the state directory's device key by the TPM
                         ([Keys] TCTI=), remove device.key, and exit
      --stderr           Log to stderr even when the journal is available
      --version          Print the version
      -h, --help         Print this help
    """

  /// Options with defaults.
  public init() {}

  /// Parses arguments (without the program name); throws a message for bad usage.
  public static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
    var options = DaemonOptions()
    var rest = arguments[...]
    func value(for flag: String) throws(UsageError) -> String {
      guard let next = rest.popFirst(), !next.hasPrefix("--") else {
        throw UsageError("\(flag) needs a value")
      }
      return next
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--socket": options.socketPath = try value(for: argument)
      case "--config": options.configPath = try value(for: argument)
      case "--state-dir": options.stateDirectory = try value(for: argument)
      case "--demo": options.demo = true
      case "--check-config": options.checkConfigOnly = true
      case "--migrate-device-key": options.migrateDeviceKey = true
      case "--stderr": options.forceStderr = true
      case "--help", "-h": throw UsageError(nil)
      case "--version": throw UsageError(nil, version: true)
      default: throw UsageError("unknown argument \(argument)")
      }
    }
    return options
  }

  /// The socket path to bind when not socket-activated: `--socket`, else `SocketLocation`'s
  /// rule, the one the client library and localauthctl use to find the daemon.
  public var resolvedSocketPath: String {
    if let socketPath { return socketPath }
    let environment = Environment()
    var variables: [String: String] = [:]
    for name in [SocketLocation.environmentVariable, "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR"] {
      variables[name] = environment[name]
    }
    return SocketLocation.daemonDefault(uid: getuid(), environment: variables)
  }
}

extension DaemonOptions {
  /// The directory for persisted rights, handoffs and the device key.
  public var resolvedStateDirectory: String {
    if let stateDirectory { return stateDirectory }
    let environment = Environment()
    if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
      return String(state.split(separator: ":").first ?? Substring(state))
    }
    if getuid() == 0 { return "/var/lib/localauthd" }
    if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return "\(xdg)/localauthd" }
    return "\(environment["HOME"] ?? "/tmp")/.local/state/localauthd"
  }
}

/// Bad usage (a message), or a request for help or the version (no message).
public struct UsageError: Error, Sendable {
  /// What is wrong; nil for --help / --version.
  public var message: String?
  /// Whether --version was asked for.
  public var version = false

  init(_ message: String?, version: Bool = false) {
    self.message = message
    self.version = version
  }
}

/// Read-only access to the process environment.
struct Environment {
  subscript(name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }
}
