import DesktopNotifications
import Foundation
import Glibc
import LocalAuthClientCore
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import SSHAgent
import Testing

/// Issue 34's notifications, end to end without the window: a real daemon, a prompt agent
/// (`LAPromptAgent`, whose notifications as sent feed `PromptNotices`, as the desktop prompt wires
/// them), and a fake notification server on a private session bus that records every call.
@Suite(
  .enabled(
    if: PrivateSessionBus.isRunnable, "needs dbus-daemon and /usr/bin/python3 with dbus, gi"))
struct DesktopNotificationEndToEndTests {
  /// The daemon (a fingerprint sensor with the daemon's own user enrolled), the bus, and an agent
  /// of the test's uid whose notifications reach `PromptNotices`.
  final class Stack: Sendable {
    let daemon: RunningDaemon
    let bus: PrivateSessionBus
    let notices: PromptNotices
    let agent: LAPromptAgent
    let feeding: Task<Void, Never>

    init() async throws {
      bus = try PrivateSessionBus()
      notices = PromptNotices(notifier: try SessionNotifier(address: bus.address))
      daemon = try RunningDaemon(
        arguments: [],
        config: DaemonConfig().sensor("finger", kind: "touchID", ["Enrolled": "me"]).passcode(
          "1234"))
      try daemon.start()
      agent = LAPromptAgent(
        connection: LocalAuthConnection(
          socketPath: daemon.socketPath, identity: ClientIdentity(name: "localauthd-prompt")))
      feeding = notices.follow(try agent.notificationsAsSent())
      _ = try await agent.register(scope: .user)
    }

    deinit {
      feeding.cancel()
      daemon.stop()
    }

    /// The calls the server recorded, once `count` of them are in (or the deadline passed).
    func calls(count: Int) async -> [[String: Any]] {
      _ = await eventually { self.bus.calls.count >= count }
      return bus.calls
    }

    /// Scripts the fingerprint sensor to match (the person touches it).
    func touch() throws {
      let admin = try daemon.connect()
      _ = try admin.call(Method.sensorsScript, ["sensor": "finger", "commands": ["MATCH"]])
    }
  }

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

  /// "ssh: sign in to HOST — touch the fingerprint sensor", HOST as the daemon verified it (here the
  /// host key's fingerprint: no system known hosts name it), whatever the caller claims; closed
  /// when the signature's evaluation ends.
  @Test func anSSHSignatureIsNotifiedWithItsHostAndClosedWhenItEnds() async throws {
    let stack = try await Stack()
    let client = try stack.daemon.connect()
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
    let notified = await stack.calls(count: 1).first
    #expect(notified?["call"] as? String == "Notify")
    #expect(notified?["app"] as? String == "localauthd")
    #expect(
      notified?["summary"] as? String
        == "ssh: sign in to \(host.fingerprint) — touch the fingerprint sensor")
    #expect((notified?["body"] as? String)?.contains("Key work") == true)
    #expect(!"\(stack.bus.calls)".contains("bank.example.com"), "the caller's claim is not shown")
    try stack.touch()
    guard case .response(_, let result)? = try client.response(to: sign).0 else {
      Issue.record("no answer to sshKey.sign")
      return
    }
    #expect(result.object?["signature"] != nil)
    let closed = await stack.calls(count: 2).last
    #expect(closed?["call"] as? String == "CloseNotification")
    #expect(closed?["id"] as? Int == notified?["id"] as? Int)
  }

  /// A sudo-like system evaluation of the agent's own user waits on the sensor, which no agent
  /// shows: "System authentication waits for you — touch the fingerprint sensor", closed when it
  /// ends. (Root names itself as `user` and `requester`, as pam_localauthd does for root's sudo.)
  @Test(.enabled(if: getuid() == 0, "needs root: a system evaluation is root's"))
  func aSystemEvaluationWaitingOnTheSensorIsNotified() async throws {
    let stack = try await Stack()
    let module = try stack.daemon.connect()
    _ = try module.call(Method.hello, ["client": ["name": "pam_localauthd (sudo)"], "protocol": 1])
    let sudo = try module.request(
      Method.evaluatePolicy,
      [
        "policy": "deviceOwnerAuthenticationWithBiometrics", "localizedReason": "sudo",
        "user": 0, "requester": 0,
      ])
    let notified = await stack.calls(count: 1).first
    #expect(
      notified?["summary"] as? String
        == "System authentication waits for you — touch the fingerprint sensor")
    #expect((notified?["body"] as? String)?.contains("pam_localauthd (sudo)") == true)
    try stack.touch()
    guard case .response(_, let result)? = try module.response(to: sudo).0 else {
      Issue.record("no answer to the system evaluation")
      return
    }
    #expect(result.object?["sensor"] == "finger")
    let closed = await stack.calls(count: 2).last
    #expect(closed?["call"] as? String == "CloseNotification")
    #expect(closed?["id"] as? Int == notified?["id"] as? Int)
  }
}
