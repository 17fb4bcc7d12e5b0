import FoundationEssentials
import LocalAuthClientCore
import LocalAuthProtocol
import SSHAgent

#if canImport(Glibc)
  import Glibc
#endif

/// One client connection of the agent: reads framed requests, answers each, keeps the session
/// bindings. Anything malformed gets SSH_AGENT_FAILURE (or, for an impossible length, the end
/// of the connection); nothing a client sends can stop the agent.
final class SSHAgentSession {
  private let fd: Int32
  private let keys: SSHKeyStore
  private let log: @Sendable (String) -> Void
  private var bindings = SessionBindings()
  /// The keys this connection last listed: ssh, git and ssh-keygen list before they sign, so a
  /// signature costs one call to the daemon (a key made since is looked up then).
  private var listed: [SSHKey] = []

  init(fd: Int32, keys: SSHKeyStore, log: @escaping @Sendable (String) -> Void) {
    self.fd = fd
    self.keys = keys
    self.log = log
  }

  /// Serves until the client closes the connection or sends a length that cannot be right.
  func serve() {
    while let header = read(4) {
      guard let length = try? AgentCodec.messageLength(header: header), let body = read(length)
      else { return }
      let answer: [UInt8]
      do {
        answer = respond(to: try AgentCodec.decode(body))
      } catch {
        answer = AgentCodec.failure
      }
      guard write(answer) else { return }
    }
  }

  /// The answer to one request.
  func respond(to request: AgentRequest) -> [UInt8] {
    switch request {
    case .requestIdentities:
      guard let list = try? keys.keysAndWait() else { return AgentCodec.failure }
      listed = list
      let identities = list.compactMap { key in
        key.publicKeyX963.map { (blob: SSHPublicKey(x963: $0).blob, comment: key.name) }
      }
      return AgentCodec.identities(identities)
    case .sign(let blob, let data, let flags):
      return sign(data, keyBlob: blob, flags: flags)
    case .sessionBind(let bind):
      do {
        try bindings.bind(bind)
        return AgentCodec.success
      } catch {
        log("localauthctl ssh-agent: session binding refused: \(error)")
        return AgentCodec.failure
      }
    case .otherExtension, .refused:
      return AgentCodec.failure
    }
  }

  private func sign(_ data: [UInt8], keyBlob: [UInt8], flags: UInt32) -> [UInt8] {
    // The RSA SHA-2 flags do not apply to ECDSA keys (the signature is ecdsa-sha2-nistp256
    // either way); flags this draft does not define are refused.
    guard flags & ~SignFlags.known == 0, let requested = SSHPublicKey(blob: keyBlob) else {
      return AgentCodec.failure
    }
    let matches = { (key: SSHKey) in key.publicKeyX963 == requested.x963 }
    guard
      let key = listed.first(where: matches)
        ?? (try? keys.keysAndWait().first(where: matches))
    else { return AgentCodec.failure }
    let signed = SignedData(data)
    if let refusal = bindings.refusal(for: signed) {
      log("localauthctl ssh-agent: refused a signature with \(key.name): \(refusal)")
      return AgentCodec.failure
    }
    // The daemon words the prompt from the data; the agent adds what only it knows: the
    // session's host key with its signature (checked again there) and the host's name.
    var host: SSHHostBinding? = nil
    if let binding = bindings.current {
      switch signed {
      case .userAuthentication:
        host = SSHHostBinding(
          hostKey: binding.hostKey, signature: binding.signature,
          name: Self.knownHosts().flatMap { KnownHosts.hostName(for: binding.hostKey, in: $0) })
      case .remoteSudo:
        // A server's sudo through the forwarded agent: the host key the forwarding is bound to.
        var bound = SSHHostBinding(
          hostKey: binding.hostKey, signature: binding.signature, name: nil)
        bound.sessionID = binding.sessionID
        host = bound
      case .fileSignature, .malformedLogin, .other:
        break
      }
    }
    do {
      // A client that goes away while the person is asked (its ssh ended, its forwarded channel
      // closed) cancels the request at once: an abandoned signature never holds the sensor.
      let signed = try keys.signAndWait(data, with: key.name, host: host) { clientIsGone() }
      guard let signature = SSHPublicKey.signatureBlob(fromDER: signed.signature) else {
        return AgentCodec.failure
      }
      log("localauthctl ssh-agent: signed with \(key.name): \(signed.reason)")
      return AgentCodec.signResponse(signature)
    } catch {
      log("localauthctl ssh-agent: no signature with \(key.name): \(error)")
      return AgentCodec.failure
    }
  }

  /// Whether the client closed its end (poll's POLLRDHUP or POLLHUP), without reading from it.
  private func clientIsGone() -> Bool {
    // POLLRDHUP (Linux's 0x2000; glibc declares it only under _GNU_SOURCE, which Swift does not set).
    let readHangUp: Int16 = 0x2000
    var watch = pollfd(fd: fd, events: readHangUp, revents: 0)
    guard poll(&watch, 1, 0) > 0 else { return false }
    return watch.revents & (readHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
  }

  /// The user's `~/.ssh/known_hosts`, up to `KnownHosts.maxFileBytes`, or nil.
  static func knownHosts() -> String? {
    guard let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") else {
      return nil
    }
    let fd = open(home + "/.ssh/known_hosts", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bytes.count < KnownHosts.maxFileBytes {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes.prefix(KnownHosts.maxFileBytes), as: UTF8.self)
  }

  /// Exactly `count` bytes, or nil at the end of the connection or an error.
  private func read(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let got = bytes.withUnsafeMutableBytes {
        Glibc.read(fd, $0.baseAddress! + offset, count - offset)
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return nil }
      offset += got
    }
    return bytes
  }

  /// Writes all of `bytes`; false when the client is gone.
  private func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset)
      }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }
}
