import SSHAgent

/// The SSH agent decoder (what `localauthctl ssh-agent` reads from any process of its user):
/// never crashes, never reads past a length, and what it accepts is what was sent.
enum AgentMessageProperties {
  /// Reads `bytes` as the agent does: framed messages one after another, each decoded and its
  /// data classified, bindings attempted; a bad length ends the stream as it ends a connection.
  static func check(_ bytes: [UInt8]) {
    var rest = bytes[...]
    var bindings = SessionBindings()
    while rest.count >= 4 {
      guard let length = try? AgentCodec.messageLength(header: Array(rest.prefix(4))) else {
        return
      }
      precondition(length >= 1 && length <= AgentCodec.maxMessageBytes, "length out of bounds")
      rest = rest.dropFirst(4)
      guard rest.count >= length else { return }
      let body = Array(rest.prefix(length))
      rest = rest.dropFirst(length)
      guard let request = try? AgentCodec.decode(body) else { continue }
      switch request {
      case .sign(let blob, let data, _):
        precondition(blob.count + data.count + 13 <= body.count, "sign fields longer than the body")
        if let key = SSHPublicKey(blob: blob) {
          precondition(key.blob == blob, "a key blob does not re-encode to itself")
        }
        let signed = SignedData(data)
        _ = bindings.refusal(for: signed)
        _ = SignReason.text(
          for: signed, hostKey: bindings.current?.hostKey, keyName: "k")
        if let bound = bindings.current {
          _ = SignReason.hostKeyRefusal(bound.hostKey, signature: bound.signature, for: signed)
        }
      case .sessionBind(let bind):
        precondition(bind.sessionID.count <= AgentCodec.maxSessionIDBytes, "session id too long")
        try? bindings.bind(bind)
        precondition(bindings.bindings.count <= SessionBindings.maxBindings, "too many bindings")
      case .requestIdentities, .otherExtension, .refused:
        break
      }
    }
    _ = KnownHosts.hostName(
      for: Array(bytes.prefix(128)), in: String(decoding: bytes, as: UTF8.self))
  }
}
