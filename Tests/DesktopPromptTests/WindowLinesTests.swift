import DesktopPrompt
import LocalAuthClientCore
import LocalAuthProtocol
import Testing

/// The line protocol with the window process: each window is one line of its texts in order, a
/// hidden part an empty field; a text never breaks its line; action lines parse, others do not.
@Suite struct WindowLinesTests {
  static func fields(_ line: [UInt8]) -> [String] {
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1, "one line")
    return String(decoding: line.dropLast(), as: UTF8.self)
      .split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
  }

  @Test func aWindowIsOneLineOfItsTextsInOrderWithHiddenPartsEmpty() {
    var window = PromptWindow(prompt: PromptWindowsTests.prompt())
    #expect(
      Self.fields(WindowLines.show(window, id: 7)) == [
        "window", "7", "vault-app — Unlock the vault",
        "vault-app asks to verify that you are alice",
        "pid 4711 · uid 1000", "Unlock the vault", "", "Waiting for the face sensor…", "Cancel", "",
        "",
      ])
    window.showsFallback = true
    window.asksSecret = true
    window.signingKey = "SSH key: login"
    let fields = Self.fields(WindowLines.show(window, id: 7))
    #expect(fields[6] == "SSH key: login")
    #expect(fields[9] == "Enter Passcode")
    #expect(fields[10] == "Passcode")
  }

  @Test func aControlByteInATextNeverBreaksTheLine() {
    var window = PromptWindow(prompt: PromptWindowsTests.prompt())
    window.reason = "one\ttwo\nclose\t1"
    let fields = Self.fields(WindowLines.show(window, id: 1))
    #expect(fields.count == 11)
    #expect(fields[5] == "one two close 1")
  }

  @Test func closeNamesTheWindow() {
    #expect(Self.fields(WindowLines.close(id: 12)) == ["close", "12"])
  }

  @Test(arguments: [
    ("cancel\t3", WindowLines.Action.cancel(id: 3)),
    ("fallback\t4", .fallback(id: 4)),
    ("secret\t5\t8", .secret(id: 5, length: 8)),
  ])
  func actionLinesParse(line: String, action: WindowLines.Action) {
    #expect(WindowLines.action(Array(line.utf8)) == action)
  }

  @Test(arguments: [
    "", "cancel", "cancel\tx", "cancel\t3\t4", "secret\t5", "secret\t5\t0", "open\t1",
  ])
  func otherLinesDoNot(line: String) {
    #expect(WindowLines.action(Array(line.utf8)) == nil)
  }
}
