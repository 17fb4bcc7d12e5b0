import LocalAuthClient
import LocalAuthCommandLine
import LocalAuthProtocol
import Synchronization
import Testing

@Suite struct CommandParserTests {
  @Test func versionPrintsTheReleaseWithoutTheDaemon() async throws {
    #expect(try CommandParser.parse(["--version"]).command == .version)
    #expect(try CommandParser.parse(["--json", "--version"]).command == .version)
    let printed = Mutex<[String]>([])
    let runner = CommandRunner(
      standardOutput: { line in printed.withLock { $0.append(line) } }, standardError: { _ in })
    let status = await runner.run(["--socket", "/nonexistent/socket", "--version"])
    #expect(status == .success)
    #expect(printed.withLock { $0 } == ["localauthctl \(localauthdVersion) (protocol 1)"])
  }

  @Test func parsesEvaluateWithEveryOption() throws {
    let invocation = try CommandParser.parse([
      "--socket", "/tmp/s.sock", "evaluate", "owner", "--reason", "Pay 5 €", "--context-reuse=30",
      "--non-interactive", "--json",
    ])
    #expect(invocation.options == GlobalOptions(socketPath: "/tmp/s.sock", json: true))
    #expect(
      invocation.command
        == .evaluate(
          .deviceOwnerAuthentication, reason: "Pay 5 €", reuseDuration: 30, nonInteractive: true))
  }

  @Test(arguments: [
    ("biometrics", Policy.deviceOwnerAuthenticationWithBiometrics),
    ("2", .deviceOwnerAuthentication),
    ("deviceOwnerAuthenticationWithCompanion", .deviceOwnerAuthenticationWithCompanion),
    ("wrist", .deviceOwnerAuthenticationWithWristDetection),
  ])
  func acceptsPolicySpellings(text: String, policy: Policy) throws {
    #expect(try CommandParser.parse(["can-evaluate", text]).command == .canEvaluate(policy))
  }

  @Test func parsesTheAdministrationCommands() throws {
    #expect(try CommandParser.parse(["status"]).command == .status)
    #expect(try CommandParser.parse(["sensors"]).command == .sensors)
    #expect(try CommandParser.parse(["monitor"]).command == .monitor)
    #expect(try CommandParser.parse(["reset-lockout"]).command == .resetLockout())
    #expect(
      try CommandParser.parse(["reset-lockout", "--user", "alice"]).command
        == .resetLockout(user: "alice"))
    #expect(
      try CommandParser.parse(["passcode", "set", "1234", "--old", "9876"]).command
        == .passcode("1234", old: "9876"))
    #expect(
      try CommandParser.parse(["agent", "--process", "42"]).command == .agent(.process(pid: 42)))
    #expect(try CommandParser.parse(["agent", "--session"]).command == .agent(.session))
    #expect(throws: UsageError.self) { try CommandParser.parse(["agent", "--process", "x"]) }
    #expect(try CommandParser.parse(["cancel", "ABC"]).command == .cancel(requestID: "ABC"))
    #expect(
      try CommandParser.parse(["enroll", "face", "bob"]).command
        == .enroll(sensor: "face", identity: "bob"))
    #expect(
      try CommandParser.parse(["unenroll", "face", "bob"]).command
        == .unenroll(sensor: "face", identity: "bob"))
    #expect(try CommandParser.parse(["passcode", "set", "123456"]).command == .passcode("123456"))
    #expect(try CommandParser.parse(["passcode", "clear"]).command == .passcode(nil))
    #expect(
      try CommandParser.parse(["sim", "face", "SLEEP", "500", "MATCH", "alice", "--replace"])
        .command
        == .sim(sensor: "face", commands: ["SLEEP 500", "MATCH alice"], replace: true))
  }

  @Test func helpWorksEverywhere() throws {
    #expect(try CommandParser.parse(["--help"]).command == .help(subcommand: nil))
    #expect(
      try CommandParser.parse(["evaluate", "--help"]).command == .help(subcommand: "evaluate"))
    #expect(try CommandParser.parse(["sim", "-h"]).command == .help(subcommand: "sim"))
    #expect(try CommandParser.parse(["help", "passcode"]).command == .help(subcommand: "passcode"))
    for subcommand in CommandParser.subcommands where subcommand != "help" {
      #expect(Usage.help(for: subcommand).hasPrefix("Usage: localauthctl \(subcommand)"))
    }
  }

  @Test(arguments: [
    ([], "missing subcommand"),
    (["frobnicate"], "unknown subcommand 'frobnicate' (see localauthctl --help)"),
    (["stauts"], "unknown subcommand 'stauts' (did you mean 'status'?)"),
    (["help", "sensor"], "unknown subcommand 'sensor' (did you mean 'sensors'?)"),
    (["evaluate", "owner"], "evaluate needs --reason TEXT (a non-empty localized reason)"),
    (
      ["evaluate", "owner", "--reason", ""],
      "evaluate needs --reason TEXT (a non-empty localized reason)"
    ),
    (["evaluate", "owner", "--reason"], "--reason needs a value"),
    (
      ["evaluate", "owner", "--reason", "x", "--context-reuse", "301"],
      "--context-reuse must be a number of seconds from 0 to 300, not '301'"
    ),
    (["can-evaluate"], "can-evaluate needs POLICY"),
    (["can-evaluate", "face"], "unknown policy 'face'; use one of: \(PolicyNames.all)"),
    (["status", "extra"], "unexpected argument 'extra'"),
    (["status", "--reason", "x"], "--reason does not apply to status"),
    (["status", "--frob"], "unknown option --frob"),
    (["passcode", "set", "12a4"], "the passcode must be 4 to 16 digits"),
    (["passcode", "set", "123"], "the passcode must be 4 to 16 digits"),
    (["passcode", "forget"], "passcode takes 'set DIGITS' or 'clear', not 'forget'"),
    (["sim", "face"], "sim needs at least one COMMAND (e.g. MATCH, NOMATCH, CANCEL)"),
    (["enroll", "face"], "enroll needs IDENTITY"),
  ])
  func rejectsWrongArguments(arguments: [String], message: String) {
    #expect(throws: UsageError.self) { try CommandParser.parse(arguments) }
    do {
      _ = try CommandParser.parse(arguments)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func groupsScriptCommands() {
    #expect(
      ScriptArguments.group(["NOMATCH", "NOMATCH", "MATCH"]) == ["NOMATCH", "NOMATCH", "MATCH"])
    #expect(ScriptArguments.group(["SLEEP 500", "CANCEL"]) == ["SLEEP 500", "CANCEL"])
    #expect(
      ScriptArguments.group(["DEFAULT", "MATCH", "RETRY", "tooFast"]) == [
        "DEFAULT MATCH", "RETRY tooFast",
      ])
    #expect(ScriptArguments.group(["PASSCODE", "1234"]) == ["PASSCODE 1234"])
  }
}
