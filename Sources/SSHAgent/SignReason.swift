import LocalAuthProtocol

/// The reason a signature asks presence for, as the prompt agent, the terminal and the journal
/// show it. The daemon words it from the signed data itself, so a process that asks for a
/// signature cannot describe one thing and have another signed.
public enum SignReason {
  /// The longest user name, host name or namespace shown, in bytes; longer ones are cut.
  static let maxNameBytes = 128

  /// "ssh: sign in to HOST (SHA256:…) as USER" for a login whose session is bound to `hostKey`,
  /// HOST only as `names.verified` gives it (a name a process of the user cannot write); a name
  /// the caller claims is shown as such ("known_hosts calls it X, unverified"), or, beside a
  /// verified name it contradicts, as a warning. "git/ssh-keygen: sign a file (namespace N)" for
  /// SSHSIG, and a plain reason naming the key for anything else.
  public static func text(
    for data: SignedData, hostKey: [UInt8]?, names: HostNames = HostNames(), keyName: String
  ) -> String {
    switch data {
    case .userAuthentication(_, let user, _, _):
      let user = shown(user)
      guard let hostKey else { return "ssh: sign in as \(user) (host not bound)" }
      let fingerprint = SSHPublicKey.fingerprint(ofBlob: hostKey)
      switch (names.verified, names.claimed) {
      case (let verified?, let claimed?) where claimed != verified:
        return "ssh: sign in to \(shown(verified)) (\(fingerprint)) as \(user);"
          + " warning: the caller calls it \(shown(claimed))"
      case (let verified?, _):
        return "ssh: sign in to \(shown(verified)) (\(fingerprint)) as \(user)"
      case (nil, let claimed?):
        return "ssh: sign in to \(fingerprint) as \(user)"
          + " (known_hosts calls it \(shown(claimed)), unverified)"
      case (nil, nil):
        return "ssh: sign in to \(fingerprint) as \(user)"
      }
    case .fileSignature(let namespace):
      return "git/ssh-keygen: sign a file (namespace \(shown(namespace)))"
    case .remoteSudo(let sudo):
      return remoteSudoText(sudo, hostKey: hostKey)
    case .malformedLogin:
      return "ssh: a login that does not parse (refused)"
    case .other:
      return "ssh: sign data with key \(shown(keyName))"
    }
  }

  /// "sudo on HOST as USER: COMMAND", marked as the server's own words (pam_ssh_agent_auth's
  /// fields are unverified), with the fingerprint of the host key the forwarded connection is bound
  /// to when it is (verified by the daemon), and the directory and the requester.
  static func remoteSudoText(_ sudo: RemoteSudoRequest, hostKey: [UInt8]?) -> String {
    let command = sudo.command.isEmpty ? "(command not said)" : sudo.command.joined(separator: " ")
    let service = sudo.service == "sudo" ? "sudo" : "\(sudo.service) (PAM)"
    let bound =
      hostKey.map { " (host key \(SSHPublicKey.fingerprint(ofBlob: $0)))" } ?? ", host not bound"
    return "\(shown(service)) on \(shown(sudo.host)) as \(shown(sudo.user)): \(shown(command))"
      + " — the server's own words\(bound); for \(shown(sudo.requester)) in \(shown(sudo.directory))"
  }

  /// Why `hostKey` with `signature` cannot vouch for a login signature of `data`, or nil when it
  /// can: the data must be a login whose session identifier the host key signed, and a login
  /// that names its host key (publickey-hostbound) must name this one.
  /// A remote sudo (pam_ssh_agent_auth) names no session of its own: the host key must have
  /// signed `boundSessionID`, the session the forwarded connection was bound to.
  public static func hostKeyRefusal(
    _ hostKey: [UInt8], signature: [UInt8], for data: SignedData, boundSessionID: [UInt8]? = nil
  ) -> String? {
    if case .remoteSudo = data {
      guard let boundSessionID else { return "a remote sudo is bound by its forwarding session" }
      guard HostKeyVerifier.verify(signature, of: boundSessionID, by: hostKey) else {
        return "the host key did not sign the forwarding session's identifier"
      }
      return nil
    }
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

/// The names of a login's host: `verified`, from a source a process of the user cannot write (the
/// system's ssh_known_hosts, read by the daemon), and `claimed`, what the caller says (the user's
/// own ~/.ssh/known_hosts, or any process's word), never shown as fact.
public struct HostNames: Sendable, Equatable {
  /// The name the daemon verified, or nil.
  public var verified: String?
  /// The name the caller claims, or nil.
  public var claimed: String?

  /// The names, none by default.
  public init(verified: String? = nil, claimed: String? = nil) {
    self.verified = verified
    self.claimed = claimed
  }
}
