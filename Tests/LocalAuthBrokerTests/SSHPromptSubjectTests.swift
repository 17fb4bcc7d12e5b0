import LocalAuthBroker
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import SSHAgent
import Sensors
import Testing

/// `ssh` in `agent.prompt` (issue 34): an SSH signature's prompt says what is signed, worded by the
/// daemon from the signed data and the host key that signed the session, never by the caller;
/// the desktop's notification ("ssh: sign in to HOST") is made from it.
@Suite struct SSHPromptSubjectTests {
  /// A login signature's data with `sessionID`, for user "alice".
  func login(_ sessionID: [UInt8]) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.string(sessionID)
    writer.byte(50)
    writer.string("alice")
    writer.string("ssh-connection")
    writer.string("publickey")
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([7])
    return writer.bytes
  }

  @Test func aLoginsPromptNamesTheVerifiedHostNeverTheCallersWord() async throws {
    let verified = VerifiedHostNames()
    let (harness, directory) = try rightsHarness(hostNames: verified)
    let agent = await harness.connect(pid: 300, name: "agent")
    #expect(await agent.call(Method.agentRegister)?.object?["agent"] != nil)
    let client = await harness.connect(pid: 301, name: "ssh-agent")
    #expect(
      await client.call(Method.sshKeyCreate, ["name": "work", "reuseSeconds": 0])?.object != nil)
    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963)
    let sessionID = [UInt8](repeating: 9, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    /// Signs a login claiming `hostName`; the ssh subject of its prompt.
    func promptedSubject(_ data: [UInt8], hostName: String?) async -> AgentSSHSubject? {
      let before = agent.recorder.notifications(Notification.agentPrompt).count
      _ = harness.face.script([.match(identity: nil)], replace: true)
      var params: JSONObject = ["name": "work", "data": .string(Base64.encode(data))]
      if let hostName {
        params["hostKey"] = .string(Base64.encode(host.blob))
        params["hostKeySignature"] = .string(Base64.encode(signature))
        params["hostName"] = .string(hostName)
      }
      #expect(await client.call(Method.sshKeySign, params)?.object?["signature"] != nil)
      let prompts = agent.recorder.notifications(Notification.agentPrompt)
      #expect(prompts.count == before + 1, "one prompt per signature")
      #expect(prompts.last?["sensorKind"] == "faceID")
      return AgentSSHSubject(json: prompts.last?["ssh"])
    }
    // The caller claims github.com: unverified, so the prompt names the host key only.
    let claimed = await promptedSubject(login(sessionID), hostName: "github.com")
    #expect(claimed == AgentSSHSubject(kind: .login, key: "work", hostKey: host.fingerprint))
    // The system's known hosts name it: that name, whatever the caller says.
    verified.names.withLock { $0[host.blob] = "prod.internal" }
    let named = await promptedSubject(login(sessionID), hostName: "github.com")
    #expect(
      named
        == AgentSSHSubject(
          kind: .login, key: "work", host: "prod.internal", hostKey: host.fingerprint))
    // A login not bound to a host key names none; a file signature its namespace.
    let unbound = await promptedSubject(login(sessionID), hostName: nil)
    #expect(unbound == AgentSSHSubject(kind: .login, key: "work"))
    var sshsig = SSHWireWriter()
    for field in ["git", "", "sha512"] { sshsig.string(field) }
    sshsig.string([UInt8](repeating: 1, count: 64))
    let file = await promptedSubject(Array("SSHSIG".utf8) + sshsig.bytes, hostName: nil)
    #expect(file == AgentSSHSubject(kind: .file, key: "work", namespace: "git"))
    let data = await promptedSubject([1, 2, 3], hostName: nil)
    #expect(data == AgentSSHSubject(kind: .data, key: "work"))
    _ = directory
  }

  @Test func anAppsPromptCarriesNoSSHSubject() async throws {
    let (harness, directory) = try rightsHarness()
    let agent = await harness.connect(pid: 300, name: "agent")
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(pid: 302, name: "app")
    let (tag, _) = await app.startEvaluation()
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPrompt, _) = $0 {
          return true
        } else {
          return false
        }
      }
    }
    #expect(agent.recorder.notifications(Notification.agentPrompt).first?["ssh"] == nil)
    _ = harness.face.script([.match(identity: nil)], replace: true)
    _ = await app.recorder.waitForResponse(tag: tag)
    _ = directory
  }
}
