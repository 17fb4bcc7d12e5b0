import Sensors
import Testing

/// `ScriptCommand.parse`: the command language of docs/protocol.md, "The script language".
@Suite("ScriptCommand.parse")
struct ScriptCommandTests {
  static func parse(_ lines: [String]) -> Result<[ScriptCommand], ScriptError> {
    Result { () throws(ScriptError) in try ScriptCommand.parse(lines: lines) }
  }

  @Test(
    "every command of the table parses",
    arguments: [
      ("MATCH", ScriptCommand.match(identity: nil)), ("MATCH alice", .match(identity: "alice")),
      ("MATCH user.name-1_x@host", .match(identity: "user.name-1_x@host")), ("NOMATCH", .noMatch),
      ("RETRY faceNotCentered", .retry(reason: .faceNotCentered)),
      ("RETRY tooFast", .retry(reason: .tooFast)),
      ("CANCEL", .cancel), ("FALLBACK", .fallback), ("PASSCODE 1234", .passcode("1234")),
      ("PASSCODE 0", .passcode("0")), ("PASSCODE 000123", .passcode("000123")),
      ("SLEEP 0", .sleep(milliseconds: 0)),
      ("SLEEP 1500", .sleep(milliseconds: 1500)),
      ("SLEEP 3600000", .sleep(milliseconds: 3_600_000)),
      ("DISCONNECT", .disconnect), ("CONNECT", .connect), ("ENROLL bob", .enroll("bob")),
      ("UNENROLL bob", .unenroll("bob")), ("DEFAULT MATCH", .setDefault(.match)),
      ("DEFAULT NOMATCH", .setDefault(.noMatch)), ("DEFAULT WAIT", .setDefault(.wait)),
    ])
  func parsesCommand(_ line: String, _ expected: ScriptCommand) {
    #expect(Self.parse([line]) == .success([expected]))
    // The description is the canonical script line, and parses back to the same command.
    #expect(Self.parse([expected.description]) == .success([expected]))
  }

  @Test(
    "verbs are case-insensitive; whitespace, tabs and CR are separators",
    arguments: [
      ("match alice", ScriptCommand.match(identity: "alice")), ("Match", .match(identity: nil)),
      ("nomatch", .noMatch), ("sleep 5", .sleep(milliseconds: 5)),
      ("default wait", .setDefault(.wait)),
      ("Default Match", .setDefault(.match)),
      ("  MATCH   alice  ", .match(identity: "alice")), ("\tCANCEL\t", .cancel),
      ("PASSCODE 42\r", .passcode("42")),
      ("enroll Bob", .enroll("Bob")),
    ])
  func caseAndWhitespace(_ line: String, _ expected: ScriptCommand) {
    #expect(Self.parse([line]) == .success([expected]))
  }

  @Test("comments and blank lines are ignored")
  func commentsAndBlankLines() {
    let lines = [
      "# a script", "", "   ", "\t", "MATCH alice # she looks", "#NOMATCH", "SLEEP 10#ms", "\r",
    ]
    #expect(Self.parse(lines) == .success([.match(identity: "alice"), .sleep(milliseconds: 10)]))
    #expect(Self.parse([]) == .success([]))
    #expect(Self.parse(["# only comments", ""]) == .success([]))
  }

  @Test(
    "malformed lines are rejected",
    arguments: [
      "FOO", "MATCHX", "MATCH a b", "NOMATCH x", "RETRY", "RETRY a b", "RETRY face-not-centered",
      "RETRY lookAtMe", "RETRY toofast",
      "CANCEL now",
      "FALLBACK x", "PASSCODE", "PASSCODE 12 34", "PASSCODE abc", "PASSCODE 12a", "PASSCODE -1",
      "PASSCODE ١٢٣",
      "PASSCODE " + String(repeating: "1", count: 65), "SLEEP", "SLEEP -1", "SLEEP 1.5",
      "SLEEP abc",
      "SLEEP 3600001", "SLEEP 99999999999999999999", "SLEEP 5 6", "DISCONNECT 1", "CONNECT x",
      "ENROLL",
      "ENROLL a b", "UNENROLL",
      "ENROLL bad/name", "ENROLL a:b", "MATCH " + String(repeating: "a", count: 65), "DEFAULT",
      "DEFAULT MAYBE",
      "DEFAULT MATCH NOW", "DEFAULT CANCEL",
    ])
  func rejectsMalformed(_ line: String) {
    guard case .failure(let error) = Self.parse([line]) else {
      Issue.record("accepted \(line)")
      return
    }
    #expect(error.line == 1)
    #expect(error.text == line)
    #expect(!error.reason.isEmpty)
  }

  @Test("identities up to 64 characters are accepted")
  func identityLength() {
    let name = String(repeating: "a", count: 64)
    #expect(Self.parse(["ENROLL \(name)"]) == .success([.enroll(name)]))
    #expect(
      Self.parse(["PASSCODE " + String(repeating: "9", count: 64)])
        == .success([.passcode(String(repeating: "9", count: 64))]))
  }

  @Test(
    "the error names the 1-based line, counting comments and blank lines", arguments: [0, 1, 2, 5])
  func errorNamesLine(_ badIndex: Int) {
    var lines = ["MATCH", "# comment", "", "SLEEP 5", "NOMATCH", "CANCEL"]
    lines.insert("BOGUS 1", at: badIndex)
    guard case .failure(let error) = Self.parse(lines) else {
      Issue.record("accepted")
      return
    }
    #expect(error.line == badIndex + 1)
    #expect(error.text == "BOGUS 1")
    #expect(error.description.hasPrefix("line \(badIndex + 1) (\"BOGUS 1\"): "))
    #expect(error.reason.contains("BOGUS"))
  }

  @Test("the first bad line is reported and the whole script is rejected")
  func firstBadLine() {
    let result = Self.parse(["ENROLL bob", "MATCH bob", "SLEEP x", "NOPE", "MATCH"])
    guard case .failure(let error) = result else {
      Issue.record("accepted")
      return
    }
    #expect(error.line == 3)
    #expect(error.text == "SLEEP x")
    #expect(error.reason.contains("SLEEP"))
  }

  @Test("reasons say what is wrong")
  func reasons() {
    func reason(_ line: String) -> String? {
      if case .failure(let e) = Self.parse([line]) { return e.reason }
      return nil
    }
    #expect(reason("MATCH a b") == "MATCH takes 0–1 argument(s), got 2")
    #expect(reason("NOMATCH x") == "NOMATCH takes 0 argument(s), got 1")
    #expect(reason("FOO") == "unknown command FOO")
    #expect(reason("DEFAULT maybe") == "DEFAULT takes MATCH, NOMATCH or WAIT")
    #expect(reason("PASSCODE x") == "PASSCODE takes digits")
  }

  @Test("only DISCONNECT, CONNECT, ENROLL, UNENROLL and DEFAULT change state")
  func stateChanges() {
    let changing: [ScriptCommand] = [
      .disconnect, .connect, .enroll("a"), .unenroll("a"), .setDefault(.match),
    ]
    let answering: [ScriptCommand] = [
      .match(identity: nil), .noMatch, .retry(reason: .tooDark), .cancel, .fallback, .passcode("1"),
      .sleep(milliseconds: 1),
    ]
    #expect(changing.allSatisfy { $0.isStateChange })
    #expect(!answering.contains { $0.isStateChange })
  }
}
