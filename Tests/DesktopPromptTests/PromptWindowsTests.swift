import DesktopPrompt
import LocalAuthClientCore
import LocalAuthProtocol
import Testing

/// The desktop prompt's windows as values: what each agent event shows, which buttons and fields
/// appear when, and what each action of the person sends.
@Suite struct PromptWindowsTests {
  static func prompt(
    client: String = "vault-app", reason: String = "Unlock the vault",
    fallback: String? = "Enter Passcode",
    secret: LAPasscodeSecret = .passcode
  ) -> LAAgentPrompt {
    LAAgentPrompt(
      requestID: "R1", clientName: client, clientPID: 4711, clientUID: 1000, user: "alice",
      policy: "deviceOwnerAuthentication", localizedReason: reason, sensor: "face",
      cancelTitle: "Cancel", fallbackTitle: fallback, secret: secret)
  }

  static func miss(_ attempt: Int, offered: Bool = false, lockedOut: Bool = false) -> LAAgentEvent {
    .feedback(
      requestID: "R1", feedback: "noMatch", attempt: attempt, retryAfterSeconds: nil,
      lockedOut: lockedOut, fallbackOffered: offered)
  }

  static func shown(_ windows: inout PromptWindows, _ prompt: LAAgentPrompt = prompt())
    -> PromptWindow
  {
    guard case .show(let window) = windows.apply(.prompt(prompt)) else {
      Issue.record("a prompt shows no window")
      return PromptWindow(prompt: prompt)
    }
    return window
  }

  @Test func aPromptShowsAWindowNamingTheClientTheReasonAndTheWait() {
    var windows = PromptWindows()
    let window = Self.shown(&windows)
    #expect(window.title == "vault-app — Unlock the vault")
    #expect(window.heading == "vault-app asks to verify that you are alice")
    #expect(window.requester == "pid 4711 · uid 1000")
    #expect(window.reason == "Unlock the vault")
    #expect(window.status == "Waiting for the face sensor…")
    #expect(window.cancelTitle == "Cancel")
    #expect(!window.showsFallback && !window.asksSecret)
  }

  @Test func anSSHSignatureShowsTheKeyThatSigns() {
    var ssh = Self.prompt(
      client: "localauthctl", reason: "ssh: sign in to build.internal (SHA256:x) as bob")
    ssh.ssh = AgentSSHSubject(
      kind: .login, key: "login\u{1B}[2J", host: "build.internal", hostKey: "SHA256:x")
    var windows = PromptWindows()
    let window = Self.shown(&windows, ssh)
    #expect(window.reason == "ssh: sign in to build.internal (SHA256:x) as bob")
    #expect(window.signingKey == "SSH key: login\\u{1B}[2J")
    #expect(Self.shown(&windows, Self.prompt()).signingKey == nil)
  }

  @Test(arguments: [
    ("org.example.Vault", true, "pid 4711 · uid 1000 · app id org.example.Vault (verified)"),
    (
      "org.example.Vault", false,
      "pid 4711 · uid 1000 · app id org.example.Vault (declared, not verified)"
    ),
    ("vault-app", false, "pid 4711 · uid 1000"),
    (
      "org.\u{1B}[2Jevil", false,
      "pid 4711 · uid 1000 · app id org.\\u{1B}[2Jevil (declared, not verified)"
    ),
  ])
  func theAppIDIsShownWhenThePromptCarriesOne(_ appID: String, _ bound: Bool, _ shown: String) {
    var windows = PromptWindows()
    guard
      case .show(let window) = windows.apply(
        .prompt(Self.prompt()), appID: appID, appIDBound: bound)
    else {
      Issue.record("no window")
      return
    }
    #expect(window.requester == shown)
  }

  @Test(arguments: [
    ("evil\u{1B}[2J", "evil\\u{1B}[2J"), ("a\r\nfake line", "a\\r\\nfake line"),
    ("x\u{202E}gnp.exe", "x\\u{202E}gnp.exe"),
  ])
  func clientTextIsSanitizedAsTheTerminalAgentDoes(_ hostile: String, _ shown: String) {
    var windows = PromptWindows()
    let window = Self.shown(&windows, Self.prompt(client: hostile, reason: hostile))
    #expect(window.reason == shown)
    #expect(window.title == "\(shown) — \(shown)")
    #expect(window.heading.hasPrefix(shown))
  }

  /// The app id the daemon puts in `agent.prompt` (`client.appID`, `appIDBound`) reaches the
  /// window: verified when bound, declared otherwise, escaped, and not repeated when it is the name.
  @Test func thePromptsAppIDIsShownAsTheDaemonKnowsIt() {
    func requester(appID: String?, bound: Bool) -> String {
      var prompt = Self.prompt()
      prompt.appID = appID
      prompt.appIDBound = bound
      var windows = PromptWindows()
      return Self.shown(&windows, prompt).requester
    }
    #expect(
      requester(appID: "com.example.vault", bound: true)
        == "pid 4711 · uid 1000 · app id com.example.vault (verified)")
    #expect(
      requester(appID: "com.example.vault", bound: false)
        == "pid 4711 · uid 1000 · app id com.example.vault (declared, not verified)")
    #expect(
      requester(appID: "x\u{1B}[2J", bound: false)
        == "pid 4711 · uid 1000 · app id x\\u{1B}[2J (declared, not verified)")
    #expect(requester(appID: nil, bound: false) == "pid 4711 · uid 1000")
    #expect(requester(appID: "vault-app", bound: false) == "pid 4711 · uid 1000")
  }

  @Test func longTextIsCutInTheTitle() {
    var windows = PromptWindows()
    let window = Self.shown(&windows, Self.prompt(reason: String(repeating: "r", count: 600)))
    #expect(window.title == "vault-app — " + String(repeating: "r", count: 60) + "…")
    #expect(window.reason.unicodeScalars.count == 513)
  }

  @Test func theFallbackButtonShowsOnlyOnceTheBrokerOffersIt() {
    var windows = PromptWindows()
    _ = Self.shown(&windows)
    guard case .update(let first) = windows.apply(Self.miss(1)) else {
      Issue.record("no update")
      return
    }
    #expect(first.status == "Not recognized (attempt 1). Try again.")
    #expect(!first.showsFallback)
    #expect(windows.answer(to: .fallback, in: "R1") == nil)
    guard case .update(let second) = windows.apply(Self.miss(2, offered: true)) else {
      Issue.record("no update")
      return
    }
    #expect(second.status == "Not recognized (attempt 2). Try again.")
    #expect(second.showsFallback)
    #expect(windows.answer(to: .fallback, in: "R1") == .fallback)
  }

  @Test func aHiddenFallbackTitleNeverShowsTheButton() {
    var windows = PromptWindows()
    _ = Self.shown(&windows, Self.prompt(fallback: nil))
    guard case .update(let window) = windows.apply(Self.miss(1, offered: true)) else {
      Issue.record("no update")
      return
    }
    #expect(!window.showsFallback)
    #expect(windows.answer(to: .fallback, in: "R1") == nil)
  }

  @Test func aLockoutSaysSo() {
    var windows = PromptWindows()
    _ = Self.shown(&windows)
    guard case .update(let window) = windows.apply(Self.miss(5, lockedOut: true)) else {
      Issue.record("no update")
      return
    }
    #expect(window.status == "Not recognized. Too many failed attempts: biometry is locked out.")
  }

  @Test func thePasscodeStageShowsTheFieldAndTakesASecretWithinTheLimit() {
    var windows = PromptWindows()
    _ = Self.shown(&windows)
    _ = windows.apply(Self.miss(1, offered: true))
    #expect(windows.answer(to: .submit(length: 4), in: "R1") == nil)
    guard case .update(let window) = windows.apply(.passcodeRequested(requestID: "R1")) else {
      Issue.record("no update")
      return
    }
    #expect(window.asksSecret && !window.showsFallback)
    #expect(window.status == "Enter your passcode.")
    #expect(windows.answer(to: .submit(length: 4), in: "R1") == .secret)
    #expect(windows.answer(to: .submit(length: 0), in: "R1") == nil)
    #expect(windows.answer(to: .submit(length: 65), in: "R1") == .refuse(tooLong: 64))
    guard
      case .update(let wrong) = windows.apply(
        .feedback(
          requestID: "R1", feedback: "wrongPasscode", attempt: 1, retryAfterSeconds: nil,
          lockedOut: false))
    else {
      Issue.record("no update")
      return
    }
    #expect(wrong.status == "Wrong passcode (attempt 1).")
    #expect(wrong.asksSecret)
  }

  @Test func aPasswordPromptTakesTheLongerLimit() {
    var windows = PromptWindows()
    _ = Self.shown(&windows, Self.prompt(fallback: "Enter Password", secret: .password))
    guard case .update(let window) = windows.apply(.passcodeRequested(requestID: "R1")) else {
      Issue.record("no update")
      return
    }
    #expect(window.status == "Enter your password.")
    #expect(window.secret.title == "Password")
    #expect(windows.answer(to: .submit(length: 512), in: "R1") == .secret)
    #expect(windows.answer(to: .submit(length: 513), in: "R1") == .refuse(tooLong: 512))
  }

  @Test func cancelSendsCancelAndTheEndClosesTheWindow() {
    var windows = PromptWindows()
    _ = Self.shown(&windows)
    #expect(windows.answer(to: .cancel, in: "R1") == .cancel)
    #expect(
      windows.apply(.ended(requestID: "R1", result: "success"))
        == .close(requestID: "R1", result: "success"))
    #expect(windows.open.isEmpty)
    #expect(windows.answer(to: .cancel, in: "R1") == nil)
    #expect(windows.apply(Self.miss(1)) == nil)
    #expect(windows.apply(.ended(requestID: "R1", result: "success")) == nil)
  }

  @Test func eventsOfAnotherPromptChangeNothing() {
    var windows = PromptWindows()
    _ = Self.shown(&windows)
    #expect(windows.apply(.passcodeRequested(requestID: "R2")) == nil)
    #expect(windows.apply(.ended(requestID: "R2", result: "userCancel")) == nil)
    #expect(windows.open.count == 1)
  }
}
