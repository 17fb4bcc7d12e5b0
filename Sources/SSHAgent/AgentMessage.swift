/// The message numbers of draft-miller-ssh-agent this agent reads or writes.
public enum AgentMessageType {
  /// SSH_AGENT_FAILURE.
  public static let failure: UInt8 = 5
  /// SSH_AGENT_SUCCESS.
  public static let success: UInt8 = 6
  /// SSH_AGENTC_REQUEST_IDENTITIES.
  public static let requestIdentities: UInt8 = 11
  /// SSH_AGENT_IDENTITIES_ANSWER.
  public static let identitiesAnswer: UInt8 = 12
  /// SSH_AGENTC_SIGN_REQUEST.
  public static let signRequest: UInt8 = 13
  /// SSH_AGENT_SIGN_RESPONSE.
  public static let signResponse: UInt8 = 14
  /// SSH_AGENTC_EXTENSION.
  public static let extensionRequest: UInt8 = 27
}

/// The SSH_AGENT_RSA_SHA2_* sign flags: they select RSA signature algorithms and mean nothing for
/// an ECDSA key, which signs with ecdsa-sha2-nistp256 whatever they say (as OpenSSH's agent does).
public enum SignFlags {
  /// SSH_AGENT_RSA_SHA2_256.
  public static let rsaSHA256: UInt32 = 2
  /// SSH_AGENT_RSA_SHA2_512.
  public static let rsaSHA512: UInt32 = 4
  /// Every flag the draft defines; other bits are refused, since their meaning is unknown.
  public static let known: UInt32 = rsaSHA256 | rsaSHA512
}

/// One decoded request from an agent client.
public enum AgentRequest: Sendable, Equatable {
  /// List the identities.
  case requestIdentities
  /// Sign `data` with the key whose blob is `keyBlob`.
  case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
  /// `session-bind@openssh.com`: the connection is for the session `sessionID` with `hostKey`.
  case sessionBind(SessionBind)
  /// Any other extension, by name.
  case otherExtension(String)
  /// A message this agent refuses (add, remove, lock, smartcard, anything unknown), by number.
  case refused(UInt8)
}

/// The contents of a `session-bind@openssh.com` extension.
public struct SessionBind: Sendable, Equatable {
  /// The server's host key blob.
  public var hostKey: [UInt8]
  /// The session identifier (the exchange hash).
  public var sessionID: [UInt8]
  /// The host key's signature over the session identifier.
  public var signature: [UInt8]
  /// Whether the connection forwards the agent onward (ssh -A), rather than authenticating.
  public var isForwarding: Bool

  /// A binding with these contents.
  public init(hostKey: [UInt8], sessionID: [UInt8], signature: [UInt8], isForwarding: Bool) {
    self.hostKey = hostKey
    self.sessionID = sessionID
    self.signature = signature
    self.isForwarding = isForwarding
  }
}

/// Decodes and encodes agent messages: `uint32 length, byte type, contents`.
public enum AgentCodec {
  /// The largest message accepted, in bytes (OpenSSH's agent takes 256 KiB).
  public static let maxMessageBytes = 256 * 1024
  /// The longest session identifier kept (OpenSSH: 128).
  public static let maxSessionIDBytes = 128
  /// The longest key blob read (an RSA-16384 host key is about 2 KiB).
  public static let maxKeyBlobBytes = 16 * 1024

  /// The length of the message that `header` (4 bytes) announces, or an error when it is zero or
  /// larger than `maxMessageBytes`.
  public static func messageLength(header: [UInt8]) throws(SSHWireError) -> Int {
    var reader = SSHWireReader(header)
    let length = Int(try reader.uint32())
    guard length >= 1 else { throw SSHWireError("an empty message") }
    guard length <= maxMessageBytes else {
      throw SSHWireError("a message of \(length) bytes is larger than \(maxMessageBytes)")
    }
    return length
  }

  /// Decodes one message body (type byte and contents, without the length).
  public static func decode(_ body: [UInt8]) throws(SSHWireError) -> AgentRequest {
    var reader = SSHWireReader(body)
    let type = try reader.byte()
    switch type {
    case AgentMessageType.requestIdentities:
      try reader.expectEnd()
      return .requestIdentities
    case AgentMessageType.signRequest:
      let key = try reader.string(maxBytes: maxKeyBlobBytes)
      let data = try reader.string(maxBytes: maxMessageBytes)
      let flags = try reader.uint32()
      try reader.expectEnd()
      return .sign(keyBlob: key, data: data, flags: flags)
    case AgentMessageType.extensionRequest:
      let name = try reader.text(maxBytes: 256)
      guard name == "session-bind@openssh.com" else { return .otherExtension(name) }
      let hostKey = try reader.string(maxBytes: maxKeyBlobBytes)
      let sessionID = try reader.string(maxBytes: maxSessionIDBytes)
      let signature = try reader.string(maxBytes: maxKeyBlobBytes)
      let forwarding = try reader.bool()
      try reader.expectEnd()
      return .sessionBind(
        SessionBind(
          hostKey: hostKey, sessionID: sessionID, signature: signature, isForwarding: forwarding))
    default:
      return .refused(type)
    }
  }

  /// A framed message of `type` with `contents`.
  public static func frame(_ type: UInt8, _ contents: [UInt8] = []) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.uint32(UInt32(contents.count + 1))
    writer.byte(type)
    return writer.bytes + contents
  }

  /// SSH_AGENT_FAILURE.
  public static var failure: [UInt8] { frame(AgentMessageType.failure) }

  /// SSH_AGENT_SUCCESS.
  public static var success: [UInt8] { frame(AgentMessageType.success) }

  /// SSH_AGENT_IDENTITIES_ANSWER for (blob, comment) pairs.
  public static func identities(_ keys: [(blob: [UInt8], comment: String)]) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.uint32(UInt32(keys.count))
    for key in keys {
      writer.string(key.blob)
      writer.string(key.comment)
    }
    return frame(AgentMessageType.identitiesAnswer, writer.bytes)
  }

  /// SSH_AGENT_SIGN_RESPONSE with an SSH signature blob.
  public static func signResponse(_ signature: [UInt8]) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.string(signature)
    return frame(AgentMessageType.signResponse, writer.bytes)
  }
}
