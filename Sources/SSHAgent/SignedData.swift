/// What a SIGN_REQUEST's data is, as far as the prompt and the session binding care.
public enum SignedData: Sendable, Equatable {
  /// An SSH_MSG_USERAUTH_REQUEST (RFC 4252 section 7), optionally the
  /// `publickey-hostbound-v00@openssh.com` variant that names the server's host key.
  case userAuthentication(sessionID: [UInt8], user: String, keyBlob: [UInt8], hostKey: [UInt8]?)
  /// An SSHSIG file signature (`ssh-keygen -Y sign`, git) in namespace `namespace`.
  case fileSignature(namespace: String)
  /// Anything else.
  case other

  /// SSH_MSG_USERAUTH_REQUEST.
  static let userAuthRequest: UInt8 = 50

  /// Classifies `data`; never throws, anything unparsable is `.other`.
  public init(_ data: [UInt8]) {
    if let parsed = Self.fileSignature(data) ?? Self.userAuthentication(data) {
      self = parsed
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

  /// `string session id, byte 50, string user, string service, string "publickey", bool TRUE,
  /// string algorithm, string key [, string host key]`.
  private static func userAuthentication(_ data: [UInt8]) -> SignedData? {
    var reader = SSHWireReader(data)
    guard let sessionID = try? reader.string(maxBytes: AgentCodec.maxSessionIDBytes),
      (try? reader.byte()) == userAuthRequest,
      let user = try? reader.text(maxBytes: 1024),
      (try? reader.text(maxBytes: 256)) != nil,
      let method = try? reader.text(maxBytes: 256),
      method == "publickey" || method == "publickey-hostbound-v00@openssh.com",
      (try? reader.bool()) == true,
      (try? reader.text(maxBytes: 256)) != nil,
      let key = try? reader.string(maxBytes: AgentCodec.maxKeyBlobBytes)
    else { return nil }
    var hostKey: [UInt8]? = nil
    if method == "publickey-hostbound-v00@openssh.com" {
      guard let bound = try? reader.string(maxBytes: AgentCodec.maxKeyBlobBytes) else {
        return nil
      }
      hostKey = bound
    }
    guard reader.isAtEnd else { return nil }
    return .userAuthentication(sessionID: sessionID, user: user, keyBlob: key, hostKey: hostKey)
  }
}
