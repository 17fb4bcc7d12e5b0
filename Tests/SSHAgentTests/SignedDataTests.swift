import LocalAuthCrypto
import SSHAgent
import Testing

/// What a SIGN_REQUEST's data is (issue 28, row 4): anything framed as sshd's signed login (string
/// session id, byte 50, …) is a login whatever its fields hold, as sshd takes them; a login frame
/// that does not parse is refused, never signed as "data".
@Suite struct SignedDataTests {
  /// The data sshd verifies for a publickey login (auth2-pubkey.c rebuilds exactly these fields).
  static func login(
    sessionID: [UInt8] = [UInt8](repeating: 7, count: 32), user: [UInt8],
    method: String = "publickey-hostbound-v00@openssh.com", hostKey: [UInt8] = [9, 9]
  ) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.string(sessionID)
    writer.byte(50)
    writer.string(user)
    writer.string("ssh-connection")
    writer.string(method)
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([1, 2, 3])
    if method.hasPrefix("publickey-hostbound") { writer.string(hostKey) }
    return writer.bytes
  }

  /// Hostile: `ssh -l 'alice:<1,100 x>'` (sshd splits user:style at the colon) and a user name
  /// that is not UTF-8 are logins, not "data". Control: a plain user name.
  @Test func aLoginIsALoginWhateverItsUserName() {
    let names: [[UInt8]] = [
      Array("alice".utf8), Array(("alice:" + String(repeating: "x", count: 1100)).utf8),
      [0x61, 0xFF, 0xFE, 0x3A, 0x80], Array(String(repeating: "y", count: 70_000).utf8), [],
    ]
    for name in names {
      guard
        case .userAuthentication(_, let user, _, let hostKey) = SignedData(Self.login(user: name))
      else {
        Issue.record("a login with a \(name.count)-byte user name was not classified as one")
        continue
      }
      #expect(hostKey == [9, 9])
      #expect(user.utf8.count >= name.count / 2)
    }
    let plain = SignedData(Self.login(user: Array("bob".utf8), method: "publickey"))
    #expect(
      plain
        == .userAuthentication(
          sessionID: [UInt8](repeating: 7, count: 32), user: "bob", keyBlob: [1, 2, 3], hostKey: nil
        ))
  }

  /// Hostile: a login frame cut anywhere, with bytes after it, with another method or without
  /// its signature flag, is refused (`.malformedLogin`), never `.other`.
  @Test func aLoginFrameThatDoesNotParseIsRefused() {
    let whole = Self.login(user: Array("alice".utf8))
    // The frame starts after the session id's length, the id and byte 50.
    for cut in (4 + 32 + 1)..<whole.count {
      #expect(SignedData(Array(whole.prefix(cut))) == .malformedLogin, "cut at \(cut)")
    }
    #expect(SignedData(whole + [0]) == .malformedLogin)
    #expect(SignedData(Self.login(user: [0x61], method: "password")) == .malformedLogin)
    var unsigned = Self.login(user: [0x61], method: "publickey")
    let flag = 4 + 32 + 1 + 5 + 18 + 13
    #expect(unsigned[flag] == 1)
    unsigned[flag] = 0
    #expect(SignedData(unsigned) == .malformedLogin)
  }

  /// A property of the classifier, over many framings: once the data starts as a login does, the
  /// answer is a login or a refusal; only data that does not start so can be `.other`.
  @Test func noLoginFrameIsEverData() {
    var generator = SystemRandomNumberGenerator()
    let whole = Self.login(user: Array("carol:style".utf8))
    for _ in 0..<5_000 {
      var data = whole
      let changes = Int.random(in: 1...4, using: &generator)
      for _ in 0..<changes {
        let index = Int.random(in: 0..<data.count, using: &generator)
        data[index] = UInt8.random(in: 0...255, using: &generator)
      }
      if Bool.random(using: &generator) {
        data = Array(data.prefix(Int.random(in: 0...data.count, using: &generator)))
      }
      let framed = data.count > 36 && data.prefix(37) == whole.prefix(37)
      let classified = SignedData(data)
      if framed {
        #expect(classified != .other, "\(data)")
      }
    }
    #expect(SignedData(Array("SSHSIG".utf8)) == .other)
    #expect(SignedData([0, 0, 0, 0, 50]) == .other, "an empty session id is no login frame")
  }

  /// Hostile: on a connection bound for forwarding (the far end of `ssh -A`), the agent refuses
  /// the long-style login as it refuses a plain one; a malformed frame is refused everywhere.
  @Test func theForwardingRuleAppliesToEveryLogin() throws {
    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963)
    let sessionID = [UInt8](repeating: 7, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    var bindings = SessionBindings()
    try bindings.bind(
      SessionBind(
        hostKey: host.blob, sessionID: sessionID, signature: signature, isForwarding: true))
    let long = Array(("alice:" + String(repeating: "x", count: 1100)).utf8)
    for user in [Array("alice".utf8), long] {
      let data = SignedData(Self.login(user: user, hostKey: host.blob))
      #expect(bindings.refusal(for: data)?.contains("forwarding") == true)
    }
    #expect(SessionBindings().refusal(for: .malformedLogin) != nil)
    #expect(SessionBindings().refusal(for: SignedData(Self.login(user: long))) == nil)
  }

  /// pam_ssh_agent_auth's challenge, as the module builds it.
  static func remoteSudo(command: [String], service: String = "sudo") -> [UInt8] {
    var action = SSHWireWriter()
    action.uint32(UInt32(command.count))
    for argument in command { action.string(argument) }
    var session = SSHWireWriter()
    session.uint32(101)
    session.string([UInt8](repeating: 5, count: 40))
    for field in ["root", "alice", service, "/srv/app"] { session.string(field) }
    session.string(command.isEmpty ? [] : action.bytes)
    session.string("build-01")
    session.uint32(0)
    session.uint32(1_764_000_000)
    var writer = SSHWireWriter()
    writer.string(session.bytes)
    writer.byte(54)
    writer.string("alice")
    writer.string("pam_ssh_agent_auth")
    writer.string("publickey")
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([1, 2, 3])
    return writer.bytes
  }

  /// Issue 28, row 7: a server's sudo through the forwarded agent is recognized and worded for
  /// what it is, as the server's own words; a challenge that does not parse is not one.
  @Test func aRemoteSudoIsWordedForWhatItIs() throws {
    let data = Self.remoteSudo(command: ["/usr/bin/systemctl", "restart", "nginx"])
    guard case .remoteSudo(let sudo) = SignedData(data) else {
      Issue.record("pam_ssh_agent_auth's challenge was not recognized")
      return
    }
    #expect(sudo.user == "root" && sudo.requester == "alice" && sudo.host == "build-01")
    #expect(sudo.command == ["/usr/bin/systemctl", "restart", "nginx"])
    let host = SSHPublicKey(x963: try P256PrivateKey.generate().publicKey.x963)
    #expect(
      SignReason.text(for: .remoteSudo(sudo), hostKey: host.blob, keyName: "k")
        == "sudo on build-01 as root: /usr/bin/systemctl restart nginx — the server's own words"
        + " (host key \(host.fingerprint)); for alice in /srv/app")
    #expect(
      SignReason.text(for: .remoteSudo(sudo), hostKey: nil, keyName: "k")
        == "sudo on build-01 as root: /usr/bin/systemctl restart nginx — the server's own words,"
        + " host not bound; for alice in /srv/app")
    let su = try #require(RemoteSudoRequest(Self.remoteSudo(command: [], service: "su")))
    #expect(
      SignReason.text(for: .remoteSudo(su), hostKey: nil, keyName: "k").hasPrefix(
        "su (PAM) on build-01 as root: (command not said)"))
    for cut in [1, 10, data.count / 2, data.count - 1] {
      #expect(SignedData(Array(data.prefix(cut))) == .other, "cut at \(cut)")
    }
  }

  /// A remote sudo is bound by the forwarding session's host key signature, which is checked.
  @Test func aRemoteSudoIsBoundByTheForwardingSession() throws {
    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963)
    let sessionID = [UInt8](repeating: 3, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    let sudo = SignedData(Self.remoteSudo(command: ["id"]))
    #expect(
      SignReason.hostKeyRefusal(
        host.blob, signature: signature, for: sudo, boundSessionID: sessionID)
        == nil)
    #expect(SignReason.hostKeyRefusal(host.blob, signature: signature, for: sudo) != nil)
    #expect(
      SignReason.hostKeyRefusal(
        host.blob, signature: signature, for: sudo, boundSessionID: [UInt8](repeating: 4, count: 32)
      )
        != nil)
  }
}
