/// What a SIGN_REQUEST's data is, as far as the prompt and the session binding care.
public enum SignedData: Sendable, Equatable {
  /// An SSH_MSG_USERAUTH_REQUEST (RFC 4252 section 7), optionally the
  /// `publickey-hostbound-v00@openssh.com` variant that names the server's host key.
  /// `user` is the name as sent, `user:style` included (bytes that are not UTF-8 are replaced).
  case userAuthentication(sessionID: [UInt8], user: String, keyBlob: [UInt8], hostKey: [UInt8]?)
  /// An SSHSIG file signature (`ssh-keygen -Y sign`, git) in namespace `namespace`.
  case fileSignature(namespace: String)
  /// pam_ssh_agent_auth's challenge: a server's sudo (or other PAM service) asking a forwarded
  /// agent; every field is the server's word.
  case remoteSudo(RemoteSudoRequest)
  /// Data framed as an SSH_MSG_USERAUTH_REQUEST (a session identifier, then byte 50) that does not
  /// parse as a publickey login: refused, never signed as "data".
  case malformedLogin
  /// Anything else.
  case other

  /// SSH_MSG_USERAUTH_REQUEST.
  static let userAuthRequest: UInt8 = 50

  /// Classifies `data`; never throws. Anything framed as a login is a login, whatever the length
  /// or the bytes of its fields (sshd takes the user name as bytes, `user:style` included, and
  /// verifies what it rebuilt from them); a login frame that does not parse is `.malformedLogin`.
  public init(_ data: [UInt8]) {
    if let file = Self.fileSignature(data) {
      self = file
    } else if let sudo = RemoteSudoRequest(data) {
      self = .remoteSudo(sudo)
    } else if Self.isFramedAsLogin(data) {
      self = Self.userAuthentication(data) ?? .malformedLogin
    } else {
      self = .other
    }
  }

  /// `byte[6] "SSHSIG", string namespace, string reserved, string hash, string H(message)`.
  private static func fileSignature(_ data: [UInt8]) -> SignedData? {
    guard data.starts(with: Array("SSHSIG".utf8)) else { return nil }
    var reader = SSHWireReader(Array(data.dropFirst(6)))
    guard let namespace = try? reader.text(maxBytes: 256), !namespace.isEmpty,
      (try? reader.string(maxBytes: 1024)) != nil,
      (try? reader.text(maxBytes: 64)) != nil,
      (try? reader.string(maxBytes: 128)) != nil, reader.isAtEnd
    else { return nil }
    return .fileSignature(namespace: namespace)
  }

  /// Whether `data` starts as sshd's signed login does: `string session id` (at most
  /// `AgentCodec.maxSessionIDBytes`, not empty), then byte 50.
  private static func isFramedAsLogin(_ data: [UInt8]) -> Bool {
    var reader = SSHWireReader(data)
    guard let sessionID = try? reader.string(maxBytes: AgentCodec.maxSessionIDBytes),
      !sessionID.isEmpty
    else { return false }
    return (try? reader.byte()) == userAuthRequest
  }

  /// `string session id, byte 50, string user, string service, string "publickey", bool TRUE,
  /// string algorithm, string key [, string host key]`, each field as long as the data allows.
  private static func userAuthentication(_ data: [UInt8]) -> SignedData? {
    var reader = SSHWireReader(data)
    let any = data.count
    guard let sessionID = try? reader.string(maxBytes: AgentCodec.maxSessionIDBytes),
      (try? reader.byte()) == userAuthRequest,
      let user = try? reader.string(maxBytes: any),
      (try? reader.string(maxBytes: any)) != nil,
      let method = try? reader.string(maxBytes: any),
      method == Array("publickey".utf8) || method == Array(hostBound.utf8),
      (try? reader.bool()) == true,
      (try? reader.string(maxBytes: any)) != nil,
      let key = try? reader.string(maxBytes: AgentCodec.maxKeyBlobBytes)
    else { return nil }
    var hostKey: [UInt8]? = nil
    if method == Array(hostBound.utf8) {
      guard let bound = try? reader.string(maxBytes: AgentCodec.maxKeyBlobBytes) else {
        return nil
      }
      hostKey = bound
    }
    guard reader.isAtEnd else { return nil }
    return .userAuthentication(
      sessionID: sessionID, user: String(decoding: user, as: UTF8.self), keyBlob: key,
      hostKey: hostKey)
  }

  /// The method of a login that names the server's host key.
  static let hostBound = "publickey-hostbound-v00@openssh.com"
}
