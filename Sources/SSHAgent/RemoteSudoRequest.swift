/// pam_ssh_agent_auth's challenge (a server's sudo asking the forwarded agent, issue 28 row 7), as
/// the module builds it (0.10.x): `string session { uint32 101, string cookie, string user, string
/// ruser, string service, string cwd, string action { uint32 count, string arg… }, string host,
/// uint64 time }, byte 54 (SSH2_MSG_USERAUTH_TRUST_REQUEST), string ruser, string
/// "pam_ssh_agent_auth", string "publickey", bool TRUE, string algorithm, string key`. Every field
/// is the server's own word: nothing here is verified but the shape. Immutable value.
public struct RemoteSudoRequest: Sendable, Equatable {
  /// The account the server's PAM service authenticates for (sudo's target, usually root).
  public var user: String
  /// The user who ran the command (whose agent is asked).
  public var requester: String
  /// The PAM service (sudo, su, …).
  public var service: String
  /// The working directory on the server.
  public var directory: String
  /// The command line on the server, one element per argument (empty: the server did not say).
  public var command: [String]
  /// The server's own host name.
  public var host: String

  /// The request version pam_ssh_agent_auth writes first in its session.
  static let version: UInt32 = 101
  /// SSH2_MSG_USERAUTH_TRUST_REQUEST.
  static let trustRequest: UInt8 = 54
  /// The most arguments read from the command line.
  static let maxArguments = 256

  /// The request `data` holds, or nil when it is not pam_ssh_agent_auth's.
  public init?(_ data: [UInt8]) {
    var outer = SSHWireReader(data)
    let any = data.count
    guard let session = try? outer.string(maxBytes: any), (try? outer.byte()) == Self.trustRequest,
      let requester = try? outer.string(maxBytes: any),
      (try? outer.string(maxBytes: any)) == Array("pam_ssh_agent_auth".utf8),
      (try? outer.string(maxBytes: any)) == Array("publickey".utf8), (try? outer.bool()) == true,
      (try? outer.string(maxBytes: any)) != nil, (try? outer.string(maxBytes: any)) != nil,
      outer.isAtEnd
    else { return nil }
    var inner = SSHWireReader(session)
    guard (try? inner.uint32()) == Self.version, (try? inner.string(maxBytes: any)) != nil,
      let user = try? inner.string(maxBytes: any),
      let sessionRequester = try? inner.string(maxBytes: any),
      sessionRequester == requester, let service = try? inner.string(maxBytes: any),
      let directory = try? inner.string(maxBytes: any),
      let action = try? inner.string(maxBytes: any),
      let host = try? inner.string(maxBytes: any), (try? inner.uint32()) != nil,
      (try? inner.uint32()) != nil, inner.isAtEnd, let command = Self.arguments(action)
    else { return nil }
    let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
    self.user = text(user)
    self.requester = text(requester)
    self.service = text(service)
    self.directory = text(directory)
    self.command = command.map(text)
    self.host = text(host)
  }

  /// The arguments of an action blob (`uint32 count, string arg…`; empty blob: none), or nil.
  private static func arguments(_ blob: [UInt8]) -> [[UInt8]]? {
    guard !blob.isEmpty else { return [] }
    var reader = SSHWireReader(blob)
    guard let count = try? reader.uint32(), count <= maxArguments else { return nil }
    var arguments: [[UInt8]] = []
    for _ in 0..<count {
      guard let argument = try? reader.string(maxBytes: blob.count) else { return nil }
      arguments.append(argument)
    }
    return reader.isAtEnd ? arguments : nil
  }
}
