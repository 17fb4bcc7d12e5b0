import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Issue 11's "Done when", for real: two Linux accounts made for the test (useradd), the real daemon in
/// per-user mode, `localauthctl agent` for each on a pseudo-terminal that gets real keystrokes, and the
/// apps run as those users (setpriv). Needs root.
@Suite(.serialized)
struct PromptAgentEndToEndTests {
  static let config = DaemonConfig().broker("Owners", "user").face().passcode()

  /// An app of `account` evaluating through `localauthctl evaluate`, running in the background.
  final class App: Sendable {
    let process: Process
    let pipe = Pipe()

    init(_ account: TestAccount, control: String, socket: String, _ arguments: [String]) throws {
      let (launcher, full) = account.command(control, ["--socket", socket] + arguments)
      process = Process()
      process.executableURL = URL(fileURLWithPath: launcher)
      process.arguments = full
      process.standardOutput = pipe
      process.standardError = pipe
      try process.run()
    }

    /// Waits for the app to finish; its status and output.
    func finish() -> (status: Int32, output: String) {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
  }

  @Test(.enabled(if: getuid() == 0, "needs root (useradd, setpriv)"))
  func twoRealUsersTheirAgentsAndTheirPasscodes() async throws {
    let alice = try TestAccount(prefix: "la-alice")
    let bob = try TestAccount(prefix: "la-bob")
    let control = try RunningDaemon.binaryPath("localauthctl", environment: "LOCALAUTHCTL_BIN")
    let daemon = try RunningDaemon(arguments: [], config: Self.config)
    try daemon.start()
    defer { _ = daemon.stop() }
    let socket = daemon.socketPath
    let admin = try daemon.connect()
    for (account, passcode) in [(alice, "1357"), (bob, "2468")] {
      #expect(
        try admin.call(
          Method.sensorsSetPasscode,
          ["passcode": .string(passcode), "user": .string(account.name)])?
          .get().objectValue?["uid"] == .int(Int(account.uid)))
    }
    func script(_ commands: [String]) throws {
      _ = try admin.call(
        Method.sensorsScript,
        ["sensor": "face", "commands": .array(commands.map(JSONValue.string)), "replace": true])
    }

    // Without an agent (and no script), a prompt that needs the person's passcode fails at once.
    let alone = try alice.run(control, ["--socket", socket, "evaluate", "owner", "--reason", "x"])
    #expect(alone.status == 1)
    #expect(alone.output.contains("notInteractive"), "\(alone.output)")
    for (account, identity) in [(alice, "alice-face"), (bob, "bob-face")] {
      #expect(
        try admin.call(
          Method.sensorsEnroll,
          ["sensor": "face", "identity": .string(identity), "user": .string(account.name)])?
          .get().objectValue?["enrolled"] == [.string(identity)])
    }

    let (aliceLauncher, aliceArguments) = alice.command(control, ["--socket", socket, "agent"])
    let aliceAgent = try PseudoTerminalProcess(executable: aliceLauncher, arguments: aliceArguments)
    let (bobLauncher, bobArguments) = bob.command(control, ["--socket", socket, "agent"])
    let bobAgent = try PseudoTerminalProcess(executable: bobLauncher, arguments: bobArguments)
    #expect(aliceAgent.waitFor("showing prompts for \(alice.name)"), "\(aliceAgent.text)")
    #expect(bobAgent.waitFor("showing prompts for \(bob.name)"), "\(bobAgent.text)")

    // alice's app asks for her presence; bob's face is shown twice and never matches for alice.
    // Face ID then stops trying and waits: alice takes the fallback (f) to the passcode.
    try script(["MATCH bob-face", "MATCH bob-face", "MATCH alice-face"])
    let vault = try App(
      alice, control: control, socket: socket,
      ["evaluate", "owner", "--reason", "Unlock the vault"])
    #expect(aliceAgent.waitFor("Reason: Unlock the vault"), "\(aliceAgent.text)")
    #expect(aliceAgent.text.contains("Sensor: face"))
    #expect(aliceAgent.text.contains("Authentication requested by localauthctl"))
    #expect(aliceAgent.waitFor("Not recognized", count: 2), "\(aliceAgent.text)")
    #expect(aliceAgent.waitFor("No more tries on this sensor"), "\(aliceAgent.text)")
    #expect(aliceAgent.text.contains("f: Enter Passcode"), "\(aliceAgent.text)")
    #expect(!aliceAgent.text.contains("Passcode: "), "no passcode before the choice")
    aliceAgent.type("f")
    #expect(aliceAgent.waitFor("Passcode: "), "\(aliceAgent.text)")
    // bob's passcode is wrong for alice: feedback, and the agent asks again.
    aliceAgent.type("2468\r")
    #expect(aliceAgent.waitFor("Wrong passcode"), "\(aliceAgent.text)")
    #expect(aliceAgent.waitFor("Passcode: ", count: 2), "\(aliceAgent.text)")
    aliceAgent.type("1357\r")
    #expect(aliceAgent.waitFor("Result: success"), "\(aliceAgent.text)")
    let unlocked = vault.finish()
    #expect(unlocked.status == 0, "\(unlocked.output)")
    #expect(unlocked.output.contains("success (deviceOwnerAuthentication, sensor passcode)"))
    #expect(!aliceAgent.text.contains("1357") && !aliceAgent.text.contains("2468"), "echo is off")
    // bob's agent never saw alice's prompt.
    #expect(!bobAgent.text.contains("Unlock the vault"))
    #expect(!bobAgent.text.contains("Authentication requested"))

    // Esc gives userCancel.
    try script(["NOMATCH", "NOMATCH"])
    let second = try App(
      alice, control: control, socket: socket, ["evaluate", "owner", "--reason", "Pay 5 EUR"])
    #expect(aliceAgent.waitFor("Reason: Pay 5 EUR"), "\(aliceAgent.text)")
    #expect(aliceAgent.waitFor("No more tries on this sensor", count: 2), "\(aliceAgent.text)")
    aliceAgent.type("f")
    #expect(aliceAgent.waitFor("Passcode: ", count: 3), "\(aliceAgent.text)")
    // An arrow key (an escape sequence) is not Esc: the prompt is still there and takes a passcode.
    aliceAgent.type("\u{1B}[A")
    aliceAgent.type("2468\r")
    #expect(aliceAgent.waitFor("Wrong passcode", count: 2), "\(aliceAgent.text)")
    aliceAgent.type("\u{1B}")
    let cancelled = second.finish()
    #expect(cancelled.status == 1)
    #expect(cancelled.output.contains("userCancel"), "\(cancelled.output)")
    #expect(aliceAgent.waitFor("Result: userCancel"), "\(aliceAgent.text)")

    // alice's failures (two above, three here: a prompt she cancels at the choice, then one more)
    // lock her biometry out; bob stays unlocked.
    try script(["NOMATCH", "NOMATCH", "CANCEL", "NOMATCH"])
    let cancelledAtTheChoice = try alice.run(
      control, ["--socket", socket, "evaluate", "biometrics", "--reason", "x"])
    #expect(cancelledAtTheChoice.output.contains("userCancel"), "\(cancelledAtTheChoice.output)")
    let locking = try alice.run(
      control, ["--socket", socket, "evaluate", "biometrics", "--reason", "x"])
    #expect(locking.output.contains("biometryLockout"), "\(locking.output)")
    let aliceCan = try alice.run(control, ["--socket", socket, "can-evaluate", "biometrics"])
    #expect(
      aliceCan.status == 1 && aliceCan.output.contains("biometryLockout"), "\(aliceCan.output)")
    let bobCan = try bob.run(control, ["--socket", socket, "can-evaluate", "biometrics"])
    #expect(bobCan.status == 0, "\(bobCan.output)")
    try script(["MATCH bob-face"])
    let bobUnlock = try bob.run(
      control, ["--socket", socket, "evaluate", "biometrics", "--reason", "b"])
    #expect(bobUnlock.status == 0, "\(bobUnlock.output)")
    #expect(!bobAgent.text.contains("Reason: x"))

    // The agents stop cleanly on SIGTERM.
    aliceAgent.signal(SIGTERM)
    bobAgent.signal(SIGTERM)
    #expect(aliceAgent.waitForExit() == 0, "\(aliceAgent.text)")
    #expect(bobAgent.waitForExit() == 0)
    #expect(aliceAgent.text.contains("stopped"))

    // No passcode bytes in the database; the passcodes survive a restart.
    admin.close()
    _ = daemon.stop()
    for name in ["rights.sqlite3", "rights.sqlite3-wal"] {
      let bytes =
        (try? Data(contentsOf: URL(fileURLWithPath: daemon.stateDirectory + "/" + name))) ?? Data()
      #expect(bytes.range(of: Data("1357".utf8)) == nil, "alice's passcode in \(name)")
      #expect(bytes.range(of: Data("2468".utf8)) == nil, "bob's passcode in \(name)")
    }
    try daemon.start()
    let again = try daemon.connect()
    _ = try again.call(
      Method.sensorsScript, ["sensor": "passcode", "commands": ["PASSCODE 2468", "PASSCODE 1357"]])
    let restarted = try alice.run(
      control, ["--socket", socket, "evaluate", "owner", "--reason", "r"])
    #expect(restarted.status == 0, "\(restarted.output)")
    #expect(restarted.output.contains("sensor passcode"))
    again.close()
  }
}
