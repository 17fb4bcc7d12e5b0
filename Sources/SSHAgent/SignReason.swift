import LocalAuthProtocol

/// The reason a signature asks presence for, as the prompt agent, the terminal and the journal
/// show it. The daemon words it from the signed data itself, so a process that asks for a
/// signature cannot describe one thing and have another signed.
public enum SignReason {
  /// The longest user name, host name or namespace shown, in bytes; longer ones are cut.
  static let maxNameBytes = 128

  /// "ssh: sign in to HOST (SHA256:…) as USER" for a login whose session is bound to `hostKey`
  /// (HOST as the user's known_hosts names it, else the fingerprint alone), "git/ssh-keygen: sign
  /// a file (namespace N)" for SSHSIG, and a plain reason naming the key for anything else.
  public static func text(
    for data: SignedData, hostKey: [UInt8]?, hostName: String?, keyName: String
  ) -> String {
    switch data {
    case .userAuthentication(_, let user, _, _):
      let user = shown(user)
      guard let hostKey else { return "ssh: sign in as \(user) (host not bound)" }
      let fingerprint = SSHPublicKey.fingerprint(ofBlob: hostKey)
      if let hostName {
        return "ssh: sign in to \(shown(hostName)) (\(fingerprint)) as \(user)"
      }
      return "ssh: sign in to \(fingerprint) as \(user)"
    case .fileSignature(let namespace):
      return "git/ssh-keygen: sign a file (namespace \(shown(namespace)))"
    case .other:
      return "ssh: sign data with key \(shown(keyName))"
    }
  }

  /// Why `hostKey` with `signature` cannot vouch for a login signature of `data`, or nil when it
  /// can: the data must be a login whose session identifier the host key signed, and a login
  /// that names its host key (publickey-hostbound) must name this one.
  public static func hostKeyRefusal(_ hostKey: [UInt8], signature: [UInt8], for data: SignedData)
    -> String?
  {
    guard case .userAuthentication(let sessionID, _, _, let bound) = data else {
      return "only a login signature is bound to a host"
    }
    if let bound, bound != hostKey { return "the login names another host key" }
    guard HostKeyVerifier.verify(signature, of: sessionID, by: hostKey) else {
      return "the host key did not sign this login's session identifier"
    }
    return nil
  }

  /// `text` with control characters escaped and cut to `maxNameBytes`.
  static func shown(_ text: String) -> String {
    var escaped = PrintableText.escaped(text)
    while escaped.utf8.count > maxNameBytes { escaped.removeLast() }
    return escaped
  }
}
