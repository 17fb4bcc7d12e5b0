import LocalAuthCrypto
import LocalAuthProtocol
import SSHAgent
import Testing

/// Public key blobs, fingerprints, signature encoding, signed-data parsing, known_hosts and bindings.
@Suite struct SSHKeyEncodingTests {
  @Test func publicKeyBlobRoundTripsAndHasOpenSSHShape() throws {
    let key = try P256PrivateKey.generate().publicKey
    let ssh = SSHPublicKey(x963: key.x963)
    #expect(SSHPublicKey(blob: ssh.blob) == ssh)
    #expect(ssh.blob.count == 4 + 19 + 4 + 8 + 4 + 65)
    #expect(
      ssh.line(comment: "work").hasPrefix("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY"))
    #expect(ssh.line(comment: "work").hasSuffix(" work"))
    #expect(ssh.fingerprint.hasPrefix("SHA256:") && !ssh.fingerprint.hasSuffix("="))
    #expect(ssh.fingerprint.count == 7 + 43)
    #expect(SSHPublicKey(blob: ssh.blob + [0]) == nil)
    #expect(SSHPublicKey(blob: Array(ssh.blob.dropLast())) == nil)
  }

  @Test func signatureBlobCarriesMinimalMpints() throws {
    let key = try P256PrivateKey.generate()
    for _ in 0..<20 {
      let der = try key.signature(for: [1, 2, 3])
      let blob = try #require(SSHPublicKey.signatureBlob(fromDER: der))
      var reader = SSHWireReader(blob)
      #expect(try reader.text() == "ecdsa-sha2-nistp256")
      var inner = SSHWireReader(try reader.string())
      for _ in 0..<2 {
        let mpint = try inner.string()
        #expect(mpint.count <= 33)
        #expect(mpint.first != 0 || (mpint.count > 1 && mpint[1] & 0x80 != 0))
      }
      #expect(inner.isAtEnd && reader.isAtEnd)
    }
    #expect(SSHPublicKey.signatureBlob(fromDER: [0x30, 0x02, 0x02, 0x00]) == nil)
    #expect(SSHPublicKey.signatureBlob(fromDER: []) == nil)
  }

  @Test func recognizesUserAuthenticationAndFileSignatures() {
    var writer = SSHWireWriter()
    writer.string([9, 9, 9])
    writer.byte(50)
    writer.string("alice")
    writer.string("ssh-connection")
    writer.string("publickey-hostbound-v00@openssh.com")
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([7])
    writer.string([8, 8])
    #expect(
      SignedData(writer.bytes)
        == .userAuthentication(sessionID: [9, 9, 9], user: "alice", keyBlob: [7], hostKey: [8, 8]))
    var sshsig = SSHWireWriter()
    sshsig.string("git")
    sshsig.string("")
    sshsig.string("sha512")
    sshsig.string([UInt8](repeating: 1, count: 64))
    #expect(SignedData(Array("SSHSIG".utf8) + sshsig.bytes) == .fileSignature(namespace: "git"))
    #expect(SignedData(Array("SSHSIG".utf8)) == .other)
    #expect(SignedData([1, 2, 3]) == .other)
  }

  @Test func readsPlainHostNamesAndSkipsHashedOnes() throws {
    let blob = SSHPublicKey(x963: try P256PrivateKey.generate().publicKey.x963).blob
    let line = "ecdsa-sha2-nistp256 " + Base64.encode(blob)
    let text = """
      # comment
      |1|abc=|def= \(line)
      @revoked evil.example \(line)
      [127.0.0.1]:2222,localhost \(line)
      """
    #expect(KnownHosts.hostName(for: blob, in: text) == "[127.0.0.1]:2222")
    #expect(KnownHosts.hostName(for: blob, in: "|1|abc=|def= \(line)") == nil)
    #expect(KnownHosts.hostName(for: blob, in: "bad\u{1b}[31mname \(line)") == nil)
    #expect(KnownHosts.hostName(for: [1], in: text) == nil)
  }

  /// Issue 28, row 3: a host is named as fact only by its verified name; the caller's is shown as
  /// unverified, or as a warning beside a verified name it contradicts; the fingerprint always.
  @Test func reasonsNameHostUserAndNamespace() throws {
    let host = SSHPublicKey(x963: try P256PrivateKey.generate().publicKey.x963)
    let login = SignedData.userAuthentication(
      sessionID: [1], user: "bob\n", keyBlob: [], hostKey: nil)
    let fingerprint = host.fingerprint
    func text(_ names: HostNames) -> String {
      SignReason.text(for: login, hostKey: host.blob, names: names, keyName: "k")
    }
    #expect(
      text(HostNames(verified: "prod.internal"))
        == "ssh: sign in to prod.internal (\(fingerprint)) as bob\\n")
    #expect(
      text(HostNames(verified: "prod.internal", claimed: "prod.internal"))
        == "ssh: sign in to prod.internal (\(fingerprint)) as bob\\n")
    #expect(
      text(HostNames(claimed: "github.com"))
        == "ssh: sign in to \(fingerprint) as bob\\n (known_hosts calls it github.com, unverified)")
    #expect(
      text(HostNames(verified: "prod.internal", claimed: "github.com"))
        == "ssh: sign in to prod.internal (\(fingerprint)) as bob\\n;"
        + " warning: the caller calls it github.com")
    #expect(text(HostNames()) == "ssh: sign in to \(fingerprint) as bob\\n")
    #expect(
      SignReason.text(for: login, hostKey: nil, keyName: "k")
        == "ssh: sign in as bob\\n (host not bound)")
    #expect(
      SignReason.text(for: .fileSignature(namespace: "git"), hostKey: nil, keyName: "k")
        == "git/ssh-keygen: sign a file (namespace git)")
    #expect(
      SignReason.text(for: .other, hostKey: nil, keyName: "k") == "ssh: sign data with key k")
  }

  @Test func onlyTheHostThatSignedTheSessionVouchesForALogin() throws {
    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963).blob
    let sessionID: [UInt8] = Array(repeating: 5, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    let login = SignedData.userAuthentication(
      sessionID: sessionID, user: "u", keyBlob: [], hostKey: nil)
    #expect(SignReason.hostKeyRefusal(host, signature: signature, for: login) == nil)
    let bound = SignedData.userAuthentication(
      sessionID: sessionID, user: "u", keyBlob: [], hostKey: host)
    #expect(SignReason.hostKeyRefusal(host, signature: signature, for: bound) == nil)
    let otherHost = SignedData.userAuthentication(
      sessionID: sessionID, user: "u", keyBlob: [], hostKey: [1])
    #expect(SignReason.hostKeyRefusal(host, signature: signature, for: otherHost) != nil)
    let otherSession = SignedData.userAuthentication(
      sessionID: [1], user: "u", keyBlob: [], hostKey: nil)
    #expect(SignReason.hostKeyRefusal(host, signature: signature, for: otherSession) != nil)
    #expect(
      SignReason.hostKeyRefusal(host, signature: signature, for: .fileSignature(namespace: "git"))
        != nil)
  }

  /// A binding of a fresh ECDSA host key, which really signed `sessionID`.
  private func signedBind(_ sessionID: [UInt8], forwarding: Bool) throws -> SessionBind {
    let hostKey = try P256PrivateKey.generate()
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    return SessionBind(
      hostKey: SSHPublicKey(x963: hostKey.publicKey.x963).blob, sessionID: sessionID,
      signature: signature, isForwarding: forwarding)
  }

  @Test func forwardingHopsFollowOpenSSHsRules() throws {
    var bindings = SessionBindings()
    let first = try signedBind([1], forwarding: true)
    try bindings.bind(first)
    // Signing in on a hop bound for forwarding is refused.
    let onHop = SignedData.userAuthentication(sessionID: [1], user: "u", keyBlob: [], hostKey: nil)
    #expect(bindings.refusal(for: onHop) != nil)
    let second = try signedBind([2], forwarding: false)
    try bindings.bind(second)
    // Past the first hop a login must name its host key, the one bound last.
    let unnamed = SignedData.userAuthentication(
      sessionID: [2], user: "u", keyBlob: [], hostKey: nil)
    #expect(bindings.refusal(for: unnamed) != nil)
    let named = SignedData.userAuthentication(
      sessionID: [2], user: "u", keyBlob: [], hostKey: second.hostKey)
    #expect(bindings.refusal(for: named) == nil)
    // Bound for an authentication: no further binding, not even the same one.
    #expect(throws: SSHWireError.self) { try bindings.bind(second) }
    #expect(throws: SSHWireError.self) { try bindings.bind(try signedBind([3], forwarding: true)) }
  }

  @Test func bindingsRefuseBadSignaturesAndOtherSessions() throws {
    var bindings = SessionBindings()
    let bogus = SessionBind(
      hostKey: [0, 0, 0, 1, 120], sessionID: [1], signature: [], isForwarding: false)
    #expect(throws: SSHWireError.self) { try bindings.bind(bogus) }
    #expect(bindings.current == nil)
    // An ECDSA host key that really signed the session identifier.
    let hostKey = try P256PrivateKey.generate()
    let sessionID: [UInt8] = Array(repeating: 7, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    let host = SSHPublicKey(x963: hostKey.publicKey.x963).blob
    try bindings.bind(
      SessionBind(hostKey: host, sessionID: sessionID, signature: signature, isForwarding: false))
    #expect(bindings.current?.hostKey == host)
    let sameSession = SignedData.userAuthentication(
      sessionID: sessionID, user: "u", keyBlob: [], hostKey: host)
    #expect(bindings.refusal(for: sameSession) == nil)
    let otherHost = SignedData.userAuthentication(
      sessionID: sessionID, user: "u", keyBlob: [], hostKey: [1])
    #expect(bindings.refusal(for: otherHost) != nil)
    let otherSession = SignedData.userAuthentication(
      sessionID: [1], user: "u", keyBlob: [], hostKey: nil)
    #expect(bindings.refusal(for: otherSession) != nil)
    #expect(bindings.refusal(for: .fileSignature(namespace: "git")) == nil)
    // A connection bound for an authentication is never bound again.
    let otherKey = try P256PrivateKey.generate()
    let otherSignature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try otherKey.signature(for: sessionID)))
    #expect(throws: SSHWireError.self) {
      try bindings.bind(
        SessionBind(
          hostKey: SSHPublicKey(x963: otherKey.publicKey.x963).blob, sessionID: sessionID,
          signature: otherSignature, isForwarding: false))
    }
  }
}
