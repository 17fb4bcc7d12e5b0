import LocalAuthCrypto

/// The sessions one agent connection was bound to with `session-bind@openssh.com`, and OpenSSH's
/// rules for them (ssh-agent.c, which applies them to destination-constrained keys; this agent
/// applies them to every key): a connection bound for an authentication is never bound again; a
/// login signature is given only for the session bound last and only for its host key, never on
/// a hop bound for forwarding, and past the first hop only when the login names its host key.
public struct SessionBindings: Sendable {
  /// The most bindings one connection may make (OpenSSH's AGENT_MAX_SESSION_IDS).
  public static let maxBindings = 16

  /// The bindings in order, the newest last.
  public private(set) var bindings: [SessionBind] = []

  /// No bindings yet.
  public init() {}

  /// The binding in force: the newest.
  public var current: SessionBind? { bindings.last }

  /// Records `bind` once its host key's signature over the session identifier checks out.
  /// Throws for a bad signature, an unsupported host key type, a session identifier already
  /// bound to another key, or too many bindings.
  public mutating func bind(_ bind: SessionBind) throws(SSHWireError) {
    guard HostKeyVerifier.verify(bind.signature, of: bind.sessionID, by: bind.hostKey) else {
      throw SSHWireError("the host key's signature over the session identifier does not verify")
    }
    guard bindings.allSatisfy(\.isForwarding) else {
      throw SSHWireError("this connection was already bound for an authentication")
    }
    if let earlier = bindings.first(where: { $0.sessionID == bind.sessionID }) {
      guard earlier.hostKey == bind.hostKey else {
        throw SSHWireError("this session identifier is already bound to another host key")
      }
      return
    }
    guard bindings.count < Self.maxBindings else {
      throw SSHWireError("too many session bindings on one connection")
    }
    bindings.append(bind)
  }

  /// Why a signature of `data` must be refused on this connection, or nil when it may be asked for.
  public func refusal(for data: SignedData) -> String? {
    if data == .malformedLogin {
      return "the data is framed as a login but does not parse as one"
    }
    guard let current, case .userAuthentication(let sessionID, _, _, let hostKey) = data else {
      return nil
    }
    if sessionID != current.sessionID {
      return "the request is for another session than the one this connection is bound to"
    }
    if let hostKey, hostKey != current.hostKey {
      return "the request names another host than the one this connection is bound to"
    }
    if current.isForwarding {
      return "the connection is bound for forwarding the agent, not for signing in"
    }
    if bindings.count > 1 && hostKey == nil {
      return "a login through a forwarded agent must name its host key"
    }
    return nil
  }
}

/// Verifies SSH host key signatures (`string algorithm, string signature`) for the key types
/// OpenSSH servers offer by default that OpenSSL checks without extra parsing: ssh-ed25519 and
/// ecdsa-sha2-nistp256. Other types are not verified, so their sessions are not bound.
enum HostKeyVerifier {
  /// Whether `signatureBlob` is `hostKey`'s valid signature of `data`.
  static func verify(_ signatureBlob: [UInt8], of data: [UInt8], by hostKey: [UInt8]) -> Bool {
    var keyReader = SSHWireReader(hostKey)
    var signatureReader = SSHWireReader(signatureBlob)
    guard let keyType = try? keyReader.text(maxBytes: 64),
      let signatureType = try? signatureReader.text(maxBytes: 64), keyType == signatureType,
      let signature = try? signatureReader.string(maxBytes: 1024), signatureReader.isAtEnd
    else { return false }
    switch keyType {
    case "ssh-ed25519":
      guard let point = try? keyReader.string(maxBytes: 32), keyReader.isAtEnd else { return false }
      return HostKeySignature.isValidEd25519(signature, of: data, by: point)
    case SSHPublicKey.algorithm:
      guard let key = SSHPublicKey(blob: hostKey), let der = derSignature(signature) else {
        return false
      }
      return HostKeySignature.isValidP256(der, of: data, by: key.x963)
    default:
      return false
    }
  }

  /// The DER ECDSA-Sig-Value for an SSH ECDSA signature body (mpint r, mpint s).
  static func derSignature(_ body: [UInt8]) -> [UInt8]? {
    var reader = SSHWireReader(body)
    guard let r = try? reader.string(maxBytes: 33), let s = try? reader.string(maxBytes: 33),
      reader.isAtEnd, !r.isEmpty, !s.isEmpty
    else { return nil }
    let integers = [UInt8(0x02), UInt8(r.count)] + r + [0x02, UInt8(s.count)] + s
    return [0x30, UInt8(integers.count)] + integers
  }
}
