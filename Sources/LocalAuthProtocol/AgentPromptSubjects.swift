// What `agent.prompt` says beyond the app's own words, each from what the daemon verified
// (docs/protocol.md, "Notifications", to prompt agents).

/// The app id of a prompt's client (`client.appID`, `client.appIDBound`): what the client claimed
/// in `session.hello`, and whether the daemon verified the claim. An app id is verified only when
/// the configuration binds it to executables (`[AppID.ID] Executable=`) and the client's own
/// executable (`/proc/PID/exe`, read at connect) is one of them; otherwise it is the client's word.
public struct AgentAppID: Sendable, Equatable {
  /// The claimed app id.
  public var id: String
  /// True when a binding verified it; false when it is only declared.
  public var bound: Bool

  /// An app id and whether it is bound.
  public init(id: String, bound: Bool) {
    self.id = id
    self.bound = bound
  }
}

/// An SSH signature's subject (`ssh` in `agent.prompt`), worded by the daemon from the signed data
/// and the host key that signed the session, never from the caller: what is signed and for whom.
public struct AgentSSHSubject: Sendable, Equatable {
  /// What the signed data is.
  public enum Kind: String, Sendable, CaseIterable {
    /// An SSH login (SSH_MSG_USERAUTH_REQUEST).
    case login
    /// An SSHSIG file signature (git, `ssh-keygen -Y sign`).
    case file
    /// pam_ssh_agent_auth's challenge from a server's sudo (every field the server's word).
    case remoteSudo
    /// Anything else.
    case data
  }

  /// What is signed.
  public var kind: Kind
  /// The SSH key's name.
  public var key: String
  /// For a login bound to its host key: the host's name from the system's known hosts, or nil.
  public var host: String?
  /// For a login bound to its host key: the key's SHA256 fingerprint (the host signed the session).
  public var hostKey: String?
  /// For a file signature: its namespace (part of what is signed).
  public var namespace: String?

  /// A subject.
  public init(
    kind: Kind, key: String, host: String? = nil, hostKey: String? = nil, namespace: String? = nil
  ) {
    self.kind = kind
    self.key = key
    self.host = host
    self.hostKey = hostKey
    self.namespace = namespace
  }

  /// The JSON object: `{kind, key, host?, hostKey?, namespace?}`.
  public var json: JSONValue {
    var object: JSONObject = ["kind": .string(kind.rawValue), "key": .string(key)]
    if let host { object["host"] = .string(host) }
    if let hostKey { object["hostKey"] = .string(hostKey) }
    if let namespace { object["namespace"] = .string(namespace) }
    return .object(object)
  }

  /// Read; nil without a known kind and a key.
  public init?(json: JSONValue?) {
    guard let object = json?.objectValue,
      let kind = object["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
      let key = object["key"]?.stringValue
    else { return nil }
    self.init(
      kind: kind, key: key, host: object["host"]?.stringValue,
      hostKey: object["hostKey"]?.stringValue, namespace: object["namespace"]?.stringValue)
  }
}
