import LocalAuthProtocol

/// `localauthctl ssh-key ACTION ...`: this user's SSH keys in the daemon.
public enum SSHKeyCommand: Sendable, Equatable {
  /// `ssh-key create NAME [--reuse SECONDS] [--keep-on-lock] [--policy biometrics|any]`.
  case create(name: String, reuseSeconds: Int, policy: SSHKeyPolicy, keepOnLock: Bool = false)
  /// `ssh-key list [--json]`.
  case list
  /// `ssh-key delete NAME`.
  case delete(name: String)
  /// `ssh-key public NAME`: the public key line again.
  case publicKey(name: String)
  /// `ssh-key import [FILE]`: always refused, with the reason.
  case importKey

  /// The action names, as `ssh-key --help` lists them.
  public static let actions = ["create", "list", "delete", "public"]
  /// Actions understood only to be refused with the reason (never listed as choices).
  public static let refusedActions = ["import"]

  /// The longest reuse window `--reuse` takes, in seconds.
  public static let maxReuseSeconds = 3600

  /// Why `ssh-key import` is refused.
  public static let importRefusal =
    "importing keys is refused: a key that existed outside the daemon may have copies elsewhere, "
    + "so a fingerprint or presence check would prove nothing about who signs with it. Create a "
    + "key with 'localauthctl ssh-key create NAME' and add its public key where the old one was."
}

/// `localauthctl ssh-agent [--listen PATH]`: the SSH agent for this user, in the foreground.
public struct SSHAgentOptions: Sendable, Equatable {
  /// The socket to make (0600, in a 0700 directory of this user); nil: the socket systemd passes.
  public var listenPath: String?

  /// Options as given.
  public init(listenPath: String?) { self.listenPath = listenPath }
}

extension Arguments {
  mutating func sshKeyCommand() throws(UsageError) -> SSHKeyCommand {
    let action = try action(SSHKeyCommand.actions, refused: SSHKeyCommand.refusedActions)
    switch action {
    case "create":
      let name = try operand("NAME", of: action)
      var reuse = 0
      if let text = take("--reuse") {
        guard let seconds = Int(text), (0...SSHKeyCommand.maxReuseSeconds).contains(seconds) else {
          throw usage(
            "--reuse must be whole seconds from 0 to \(SSHKeyCommand.maxReuseSeconds), not '\(text)'"
          )
        }
        reuse = seconds
      }
      var policy = SSHKeyPolicy.biometrics
      if let text = take("--policy") {
        guard let named = SSHKeyPolicy(rawValue: text) else {
          throw usage("--policy must be biometrics or any, not '\(text)'")
        }
        policy = named
      }
      let keepOnLock = flags.removeValue(forKey: "--keep-on-lock") != nil
      return .create(name: name, reuseSeconds: reuse, policy: policy, keepOnLock: keepOnLock)
    case "list": return .list
    case "delete": return .delete(name: try operand("NAME", of: action))
    case "public": return .publicKey(name: try operand("NAME", of: action))
    default:
      values.removeAll()
      return .importKey
    }
  }

  mutating func sshAgentOptions() throws(UsageError) -> SSHAgentOptions {
    let path = take("--listen")
    if let path, !path.hasPrefix("/") { throw usage("--listen needs an absolute socket path") }
    return SSHAgentOptions(listenPath: path)
  }
}
