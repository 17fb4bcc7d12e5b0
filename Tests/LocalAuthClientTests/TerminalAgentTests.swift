import Foundation
import LocalAuthClient
import Synchronization
import Testing

@testable import LocalAuthCommandLine

/// What `localauthctl agent` prints for text a client chose: never an escape sequence, a carriage
/// return, a fake line or a bidi override.
@Suite struct TerminalAgentTests {
  @Test(arguments: [
    ("evil\u{1B}[2J", "evil\\u{1B}[2J"), ("a\r\nfake line", "a\\r\\nfake line"),
    ("x\u{202E}gnp.exe", "x\\u{202E}gnp.exe"), ("\u{9B}31m", "\\u{9B}31m"), ("plain", "plain"),
  ])
  func sanitizeMakesControlsVisible(_ input: String, _ expected: String) {
    #expect(TerminalText.sanitize(input) == expected)
  }

  @Test func longTextIsCut() {
    #expect(TerminalText.sanitize(String(repeating: "a", count: 600), limit: 10) == "aaaaaaaaaa…")
  }

  @Test func aHostilePromptPrintsNoEscapeSequence() {
    let printed = Mutex<String>("")
    let agent = LAPromptAgent(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    var session = PromptSession(agent: agent) { text in printed.withLock { $0 += text } }
    session.handle(
      .prompt(
        LAAgentPrompt(
          requestID: "R", clientName: "sudo\u{1B}]0;pwned\u{7}\r\nAuthentication requested by root",
          clientPID: 1, clientUID: 0, user: "alice", policy: "deviceOwnerAuthentication",
          localizedReason: "Pay\u{1B}[8m hidden", sensor: "face", cancelTitle: "Cancel\u{1B}[1m",
          fallbackTitle: "Enter\u{202E}drowssaP")))
    let text = printed.withLock { $0 }
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\r" })
    #expect(!text.contains("\u{202E}"))
    // The forged "line" stays on the real one: one line starts with it.
    let lines = text.split(separator: "\n").filter { $0.hasPrefix("Authentication requested by") }
    #expect(lines.count == 1)
    #expect(text.contains("Reason: Pay\\u{1B}[8m hidden"))
  }

  @Test func fIsOfferedOnlyOnceTheFallbackExistsAndEarlyKeysAreNotDroppedSilently() async {
    let printed = Mutex<String>("")
    let agent = LAPromptAgent(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    var session = PromptSession(agent: agent) { text in printed.withLock { $0 += text } }
    session.handle(
      .prompt(
        LAAgentPrompt(
          requestID: "R", clientName: "app", clientPID: 1, clientUID: 0, user: "alice",
          policy: "deviceOwnerAuthentication", localizedReason: "Pay", sensor: "face",
          cancelTitle: "Cancel", fallbackTitle: "Enter Passcode")))
    #expect(!printed.withLock { $0 }.contains("f: "), "f is not offered before a failed match")
    // f before the offer: said so, nothing sent (the daemon here is unreachable: no error line).
    #expect(await session.press(UInt8(ascii: "f")) == .handled)
    #expect(printed.withLock { $0 }.contains("The fallback is not offered yet"))
    #expect(!printed.withLock { $0 }.contains("cannot connect"))
    // Digits typed before the passcode is asked for are reported, once.
    for key in Array("12".utf8) { #expect(await session.press(key) == .handled) }
    #expect(
      printed.withLock { $0 }.components(separatedBy: "Keys typed now are ignored").count == 2)
    session.handle(
      .feedback(
        requestID: "R", feedback: "noMatch", attempt: 2, retryAfterSeconds: nil, lockedOut: false,
        fallbackOffered: true))
    #expect(printed.withLock { $0 }.contains("  f: Enter Passcode\n"))
    #expect(!printed.withLock { $0 }.lowercased().contains("password"))
  }

  @Test func faceIDsStopIsSaidAsAChoiceNotAsAnotherTry() {
    let agentLine = PromptSession.describe("awaitingChoice", attempt: 2, retryAfter: nil)
    #expect(agentLine.contains("No more tries") && agentLine.contains("f takes the fallback"))
    let waiting = EvaluationProgress.waitingText(
      .feedback(requestID: "R", sensor: "face", feedback: "awaitingChoice", attempt: 2))
    #expect(waiting == "face: no more tries, waiting for the fallback or Cancel")
    #expect(
      EvaluationProgress.waitingText(
        .feedback(requestID: "R", sensor: "face", feedback: "noMatch", attempt: 1))
        == "face: noMatch, trying again")
  }

  @Test func ctrlCStopsWithNoPromptAndCancelsAPromptShown() async {
    let printed = Mutex<String>("")
    let agent = LAPromptAgent(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    var session = PromptSession(agent: agent) { text in printed.withLock { $0 += text } }
    #expect(await session.press(0x03) == .stop)
    session.handle(
      .prompt(
        LAAgentPrompt(
          requestID: "R", clientName: "app", clientPID: 1, clientUID: 0, user: "alice",
          policy: "deviceOwnerAuthentication", localizedReason: "Pay", sensor: "face",
          cancelTitle: "Cancel", fallbackTitle: nil)))
    session.handle(.passcodeRequested(requestID: "R"))
    for key in Array("12".utf8) { #expect(await session.press(key) == .handled) }
    #expect(session.typed == Array("12".utf8))
    #expect(await session.press(0x7F) == .handled)
    #expect(session.typed == Array("1".utf8))
    // Ctrl-C with a prompt shown cancels it (here the daemon is unreachable: the error is printed).
    #expect(await session.press(0x03) == .handled)
    #expect(printed.withLock { $0 }.contains("Cancelled."))
    #expect(!printed.withLock { $0 }.contains("12"), "typed digits are never echoed")
  }
}

/// The terminal agent's "App:" line (issue 34): a bound app id is said verified, any other only
/// declared; none is printed when the client declared none.
@Suite struct TerminalAgentAppIDTests {
  func printed(appID: String?, bound: Bool) -> String {
    let printed = Mutex<String>("")
    let agent = LAPromptAgent(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    var session = PromptSession(agent: agent) { text in printed.withLock { $0 += text } }
    session.handle(
      .prompt(
        LAAgentPrompt(
          requestID: "R", clientName: "Vault", clientPID: 1, clientUID: 1000, user: "alice",
          policy: "deviceOwnerAuthentication", localizedReason: "Unlock", sensor: "face",
          cancelTitle: "Cancel", fallbackTitle: nil, appID: appID, appIDBound: bound)))
    return printed.withLock { $0 }
  }

  @Test func aBoundAppIDIsSaidVerifiedAndAnotherDeclared() {
    #expect(
      printed(appID: "com.example.vault", bound: true).contains(
        "\n  App:    com.example.vault (verified: bound to its executable)\n  User:   alice\n"))
    #expect(
      printed(appID: "com.example.vault", bound: false).contains(
        "\n  App:    com.example.vault (declared, not verified)\n  User:   alice\n"))
    #expect(!printed(appID: nil, bound: false).contains("App:"))
    #expect(printed(appID: nil, bound: false).contains("(pid 1, uid 1000)\n  User:   alice\n"))
  }

  @Test func aHostileAppIDIsEscaped() {
    let text = printed(appID: "x\u{1B}[2J\r\nUser:   root", bound: false)
    #expect(text.contains("App:    x\\u{1B}[2J\\r\\nUser:   root (declared, not verified)"))
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0 == "\r" })
  }
}
