import DesktopNotifications
import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// `SessionNotifier` and `PromptNotices` against a fake notification server on a private session
/// bus: what reaches `Notify` (app name, summary, escaped body, hints) and that every notice is
/// closed when its evaluation ends.
@Suite(
  .enabled(if: PrivateSessionBus.isRunnable, "needs dbus-daemon and /usr/bin/python3 with dbus, gi")
)
struct SessionNotifierTests {
  @Test func aNoticeReachesNotifyAndItsCloseReachesCloseNotification() throws {
    let bus = try PrivateSessionBus()
    let notifier = try SessionNotifier(address: bus.address)
    let id = notifier.notify(
      summary: "ssh: sign in to git.example.org — touch the fingerprint sensor",
      body: "Key laptop; asked by <b>ssh</b> & co")
    #expect(id == 1)
    let notify = bus.calls.first
    #expect(notify?["call"] as? String == "Notify")
    #expect(notify?["app"] as? String == "localauthd")
    #expect(notify?["replaces"] as? Int == 0)
    #expect(
      notify?["summary"] as? String
        == "ssh: sign in to git.example.org — touch the fingerprint sensor")
    #expect(notify?["body"] as? String == "Key laptop; asked by &lt;b&gt;ssh&lt;/b&gt; &amp; co")
    let hints = notify?["hints"] as? [String: Any]
    #expect(hints?["urgency"] as? Int == 2, "critical")
    #expect(hints?["transient"] as? Bool == true)
    #expect(notifier.close(try #require(id)))
    #expect(bus.calls.last?["call"] as? String == "CloseNotification")
    #expect(bus.calls.last?["id"] as? Int == 1)
  }

  @Test func hostileTextArrivesSanitized() throws {
    let bus = try PrivateSessionBus()
    let notifier = try SessionNotifier(address: bus.address)
    _ = notifier.notify(
      summary: "pay\u{1B}]8;;http://evil\u{7}\u{202E}gnp.exe\nfake", body: "<a href='x'>y</a>\u{0}")
    let notify = bus.calls.first
    let summary = notify?["summary"] as? String ?? ""
    #expect(!summary.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    #expect(summary == "pay\\u{1B}]8;;http://evil\\u{7}\\u{202E}gnp.exe\\nfake")
    #expect(notify?["body"] as? String == "&lt;a href=&apos;x&apos;&gt;y&lt;/a&gt;\\u{0}")
  }

  @Test func noServerGivesNoIDAndNoBusThrows() throws {
    let bus = try PrivateSessionBus(server: false)
    let notifier = try SessionNotifier(address: bus.address, timeout: .seconds(5))
    #expect(notifier.notify(summary: "s", body: "b") == nil)
    #expect(throws: SessionBusError.self) {
      try SessionNotifier(address: "unix:path=\(bus.directory)/no-such-bus")
    }
  }

  @Test func anSSHPromptIsNotifiedAndClosedWhenItEnds() throws {
    let bus = try PrivateSessionBus()
    let notices = PromptNotices(notifier: try SessionNotifier(address: bus.address))
    let prompt = AgentPromptEvent(
      requestID: "R1", clientName: "localauthctl ssh-agent", clientPID: 4711, clientUID: 1000,
      user: "alice", policy: "deviceOwnerAuthenticationWithBiometrics",
      localizedReason: "ssh: sign in to git.example.org (SHA256:abc) as git", sensor: "finger",
      cancelTitle: "Cancel", fallbackTitle: nil, secret: "password", sensorKind: "touchID",
      ssh: AgentSSHSubject(
        kind: .login, key: "laptop", host: "git.example.org", hostKey: "SHA256:abc"))
    notices.handle(method: Notification.agentPrompt, params: prompt.object)
    #expect(
      bus.calls.first?["summary"] as? String
        == "ssh: sign in to git.example.org — touch the fingerprint sensor")
    #expect(notices.openRequests == ["R1"])
    // An app's prompt (no ssh subject) gives none: the window shows it.
    var app = prompt
    app.requestID = "R2"
    app.ssh = nil
    notices.handle(method: Notification.agentPrompt, params: app.object)
    #expect(bus.calls.count == 1)
    // Another evaluation's end closes nothing; its own closes its notice.
    notices.handle(
      method: Notification.agentEnded,
      params: AgentEndedEvent(requestID: "R2", result: "success", reason: nil).object)
    #expect(bus.calls.count == 1)
    notices.handle(
      method: Notification.agentEnded,
      params: AgentEndedEvent(requestID: "R1", result: "success", reason: nil).object)
    #expect(bus.calls.last?["call"] as? String == "CloseNotification")
    #expect(bus.calls.last?["id"] as? Int == bus.calls.first?["id"] as? Int)
    #expect(notices.openRequests.isEmpty)
  }

  @Test func aWaitIsNotifiedUntilItEndsAndOpenNoticesAreBounded() throws {
    let bus = try PrivateSessionBus()
    let notices = PromptNotices(notifier: try SessionNotifier(address: bus.address))
    for index in 0..<(PromptNotices.maxOpen + 2) {
      let waiting = AgentWaitingEvent(
        requestID: "W\(index)", system: true, user: "alice", sensor: "finger",
        sensorKind: "touchID", clientName: "pam_localauthd (sudo)", clientPID: 42, clientUID: 0,
        localizedReason: "sudo")
      notices.handle(method: Notification.agentWaiting, params: waiting.object)
    }
    let notified = bus.calls.filter { $0["call"] as? String == "Notify" }
    #expect(notified.count == PromptNotices.maxOpen + 2)
    #expect(
      notified.first?["summary"] as? String
        == "System authentication waits for you — touch the fingerprint sensor")
    // The two oldest were closed to stay within the bound.
    let closed = bus.calls.filter { $0["call"] as? String == "CloseNotification" }
    #expect(closed.compactMap { $0["id"] as? Int } == [1, 2])
    #expect(notices.openRequests.count == PromptNotices.maxOpen)
    notices.handle(
      method: Notification.agentWaitEnded, params: AgentWaitEndedEvent(requestID: "W9").object)
    #expect(bus.calls.last?["call"] as? String == "CloseNotification")
    #expect(bus.calls.last?["id"] as? Int == 10)
  }
}
