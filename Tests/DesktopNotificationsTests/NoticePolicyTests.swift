import DesktopNotifications
import LocalAuthProtocol
import Testing

/// `NoticePolicy`: which agent events give a notification and its words, from what the daemon
/// verified; a client's words only quoted in the body, sanitized.
@Suite struct NoticePolicyTests {
  func prompt(ssh: AgentSSHSubject?, kind: String? = "touchID", client: String = "ssh-agent")
    -> AgentPromptEvent
  {
    AgentPromptEvent(
      requestID: "R", clientName: client, clientPID: 4711, clientUID: 1000, user: "alice",
      policy: "deviceOwnerAuthenticationWithBiometrics", localizedReason: "whatever the app says",
      sensor: "finger", cancelTitle: "Cancel", fallbackTitle: nil, secret: "password",
      sensorKind: kind, ssh: ssh)
  }

  @Test func aLoginNamesTheVerifiedHost() {
    let notice = NoticePolicy.notice(
      for: prompt(
        ssh: AgentSSHSubject(
          kind: .login, key: "laptop", host: "git.example.org", hostKey: "SHA256:abc")))
    #expect(notice?.summary == "ssh: sign in to git.example.org — touch the fingerprint sensor")
    #expect(notice?.body == "Key laptop, host key SHA256:abc; asked by ssh-agent (pid 4711).")
    #expect(notice?.urgency == .critical)
  }

  @Test func aHostWithoutAVerifiedNameIsItsFingerprint() {
    let named = NoticePolicy.notice(
      for: prompt(ssh: AgentSSHSubject(kind: .login, key: "k", hostKey: "SHA256:abc")))
    #expect(named?.summary == "ssh: sign in to SHA256:abc — touch the fingerprint sensor")
    let unbound = NoticePolicy.notice(for: prompt(ssh: AgentSSHSubject(kind: .login, key: "k")))
    #expect(unbound?.summary == "ssh: sign in (host not bound) — touch the fingerprint sensor")
  }

  @Test func fileSignaturesAndOtherDataAreNamed() {
    #expect(
      NoticePolicy.notice(
        for: prompt(ssh: AgentSSHSubject(kind: .file, key: "k", namespace: "git"), kind: "faceID"))?
        .summary == "git/ssh-keygen: sign a file (namespace git) — look at the camera")
    #expect(
      NoticePolicy.notice(for: prompt(ssh: AgentSSHSubject(kind: .data, key: "k")))?.summary
        == "ssh: sign with key k — touch the fingerprint sensor")
  }

  @Test func anAppsPromptGivesNoNoticeWhateverItsReasonSays() {
    // The reason reads like a signature: only the daemon's `ssh` subject makes one.
    var app = prompt(ssh: nil)
    app.localizedReason = "ssh: sign in to bank.example.com (SHA256:x) as alice"
    #expect(NoticePolicy.notice(for: app) == nil)
  }

  @Test func aClientsWordsAreSanitizedAndCut() {
    let notice = NoticePolicy.notice(
      for: prompt(
        ssh: AgentSSHSubject(kind: .login, key: "k", hostKey: "SHA256:abc"),
        client: "evil\u{1B}[2J\u{202E}" + String(repeating: "x", count: 300)))
    let body = notice?.body ?? ""
    #expect(body.contains("evil\\u{1B}[2J\\u{202E}"))
    #expect(!body.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    #expect(body.count < 200, "the name is cut")
  }

  @Test func aWaitSaysWhoAsksAndWhatToDo() {
    let notice = NoticePolicy.notice(
      for: AgentWaitingEvent(
        requestID: "R", system: true, user: "alice", sensor: "finger", sensorKind: "touchID",
        clientName: "pam_localauthd (sudo)", clientPID: 42, clientUID: 0,
        localizedReason: "sudo"))
    #expect(notice.summary == "System authentication waits for you — touch the fingerprint sensor")
    #expect(
      notice.body == "sudo — asked by pam_localauthd (sudo) (pid 42) for alice, on sensor finger.")
  }

  @Test(arguments: [
    ("a<b>&'\"", "a&lt;b&gt;&amp;&apos;&quot;"), ("plain", "plain"),
    ("x\u{1B}<", "x\\u{1B}&lt;"),
  ])
  func bodiesAreEscapedForMarkup(_ input: String, _ expected: String) {
    #expect(NotificationMarkup.body(input) == expected)
  }
}
