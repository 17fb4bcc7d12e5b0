import FoundationEssentials
import Glibc
import LocalAuthProtocol

/// What a client declares about itself in `session.hello` (docs/protocol.md, "Session").
/// The daemon identifies the peer by SO_PEERCRED; these are only labels and the interactive flag.
public struct ClientIdentity: Sendable, Equatable {
  /// The client's name, shown in logs and the monitor.
  public var name: String
  /// The app id that scopes persisted rights; the daemon defaults it to the name.
  public var appID: String?
  /// Whether the client can show UI; a non-interactive client gets notInteractive for prompts.
  public var interactive: Bool

  /// An identity; by default the process name, interactive.
  public init(
    name: String = ProcessInfo.processInfo.processName, appID: String? = nil,
    interactive: Bool = true
  ) {
    self.name = name
    self.appID = appID
    self.interactive = interactive
  }

  /// The `session.hello` params.
  var helloParams: HelloRequest.Params {
    HelloRequest.Params(
      name: name, appID: appID, interactive: interactive, protocol: protocolVersion)
  }
}

/// What the daemon said about itself in answer to `session.hello`.
public struct ServerInfo: Sendable, Equatable {
  /// The server's name.
  public var server: String
  /// The daemon's version.
  public var version: String
  /// The protocol version it speaks.
  public var protocolVersion: Int
  /// The device's biometry type.
  public var biometryType: LABiometryType
  /// The configured sensor names.
  public var sensors: [String]

  /// What a `session.hello` answer says.
  init(_ hello: HelloResult) {
    server = hello.server
    version = hello.version
    protocolVersion = hello.protocolVersion
    biometryType = LABiometryType(name: hello.biometryType.rawValue) ?? .none
    sensors = hello.sensors
  }

}

/// The daemon's socket could not be reached (exit status 3 in localauthctl).
public struct ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The socket path that was tried.
  public var socketPath: String
  /// The errno from connect(2), negated as the C glue returns it.
  public var errno: Int32

  /// A connection failure for a path and a negated errno.
  public init(socketPath: String, errno: Int32) {
    self.socketPath = socketPath
    self.errno = errno
  }

  /// "cannot connect to /run/…: No such file or directory".
  public var description: String {
    "cannot connect to \(socketPath): \(String(cString: strerror(-errno)))"
  }
}
