import LocalAuthProtocol

/// The reason a signature asks presence for, as the prompt agent, the terminal and the journal show it.
public enum SignReason {
  /// The longest user name or namespace shown, in bytes; longer ones are cut.
  static let maxNameBytes = 128

  /// "ssh: sign in to HOST (SHA256:…) as USER" for a bound session (the host from known_hosts, else
  /// the fingerprint alone), "git/ssh-keygen: sign a file (namespace N)" for SSHSIG, and a plain
  /// reason naming the key for anything else.
  public static func text(
    for data: SignedData, binding: SessionBind?, knownHosts: String?, keyName: String
  ) -> String {
    switch data {
    case .userAuthentication(_, let user, _, _):
      let user = shown(user)
      guard let binding else { return "ssh: sign in as \(user) (host not bound)" }
      let fingerprint = SSHPublicKey.fingerprint(ofBlob: binding.hostKey)
      if let knownHosts, let host = KnownHosts.hostName(for: binding.hostKey, in: knownHosts) {
        return "ssh: sign in to \(shown(host)) (\(fingerprint)) as \(user)"
      }
      return "ssh: sign in to \(fingerprint) as \(user)"
    case .fileSignature(let namespace):
      return "git/ssh-keygen: sign a file (namespace \(shown(namespace)))"
    case .other:
      return "ssh: sign data with key \(shown(keyName))"
    }
  }

  /// `text` with control characters escaped and cut to `maxNameBytes`.
  static func shown(_ text: String) -> String {
    var escaped = PrintableText.escaped(text)
    while escaped.utf8.count > maxNameBytes { escaped.removeLast() }
    return escaped
  }
}
