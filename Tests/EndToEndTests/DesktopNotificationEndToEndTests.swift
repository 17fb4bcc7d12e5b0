import DesktopNotifications
import Foundation
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import SSHAgent
import Testing

/// Issue 34's notification, end to end without the window: a real daemon, a prompt agent on its
/// socket feeding `PromptNotices`, a fake notification server on a private session bus. An SSH
/// login signature shows "ssh: sign in to HOST — touch the fingerprint sensor" (HOST as the daemon
/// verified it: here the host key's fingerprint, since no system known hosts name it, whatever the
/// caller claims), and the notice is closed when the signature's evaluation ends.
@Suite(
  .enabled(
    if: PrivateSessionBus.isRunnable, "needs dbus-daemon and /usr/bin/python3 with dbus, gi"))
struct DesktopNotificationEndToEndTests {
  /// A login signature's data with `sessionID`, for user "git".
  func login(_ sessionID: [UInt8]) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.string(sessionID)
    writer.byte(50)
    writer.string("git")
    writer.string("ssh-connection")
    writer.string("publickey")
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([7])
    return writer.bytes
  }

  /// Reads the agent's lines until the notification `method`, handing each to `notices`.
  func read(_ agent: LineClient, until method: String, into notices: PromptNotices) throws
    -> JSONObject?
  {
    while let value = try agent.readMessage(seconds: 30) {
      guard case .notification(let name, let params)? = ServerMessage(json: value) else {
        continue
      }
      notices.handle(method: name, params: params)
      if name == method { return params }
    }
    return nil
  }

  @Test func anSSHSignatureIsNotifiedWithItsHostAndClosedWhenItEnds() throws {
    let bus = try PrivateSessionBus()
    let notices = PromptNotices(notifier: try SessionNotifier(address: bus.address))
    let daemon = try RunningDaemon(
      arguments: [],
      config: DaemonConfig().sensor("finger", kind: "touchID", ["Enrolled": "me"]).passcode(
        "1234"))
    try daemon.start()
    defer { daemon.stop() }
    let agent = try daemon.connect()
    #expect(try agent.call(Method.agentRegister)?.object?["agent"] != nil)
    let client = try daemon.connect()
    #expect(try client.call(Method.sshKeyCreate, ["name": "work"])?.object != nil)
    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963)
    let sessionID = [UInt8](repeating: 9, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    let sign = try client.request(
      Method.sshKeySign,
      [
        "name": "work", "data": .string(Base64.encode(login(sessionID))),
        "hostKey": .string(Base64.encode(host.blob)),
        "hostKeySignature": .string(Base64.encode(signature)), "hostName": "bank.example.com",
      ])
    let prompt = try read(agent, until: Notification.agentPrompt, into: notices)
    #expect(prompt?["ssh"]?.objectValue?["hostKey"] == .string(host.fingerprint))
    let notified = bus.calls.first
    #expect(notified?["call"] as? String == "Notify")
    #expect(notified?["app"] as? String == "localauthd")
    #expect(
      notified?["summary"] as? String
        == "ssh: sign in to \(host.fingerprint) — touch the fingerprint sensor")
    #expect((notified?["body"] as? String)?.contains("Key work") == true)
    #expect(!(bus.calls.map { "\($0)" }.joined().contains("bank.example.com")), "the claim")
    // The finger touches: the evaluation ends, the signature is made, the notice is closed.
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsScript, ["sensor": "finger", "commands": ["MATCH"]])
    #expect(try read(agent, until: Notification.agentEnded, into: notices)?["result"] == "success")
    guard case .response(_, let result)? = try client.response(to: sign).0 else {
      Issue.record("no answer to sshKey.sign")
      return
    }
    #expect(result.object?["signature"] != nil)
    #expect(bus.calls.last?["call"] as? String == "CloseNotification")
    #expect(bus.calls.last?["id"] as? Int == notified?["id"] as? Int)
    #expect(notices.openRequests.isEmpty)
  }
}
