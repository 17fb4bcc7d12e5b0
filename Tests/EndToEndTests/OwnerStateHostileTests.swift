import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Hostile clients against the owner state of issue 9 (items 5 and 11): restarting the daemon does not
/// reset the passcode back-off or the biometric lockout; domainState cannot be recomputed without the
/// device key; enrollment refuses identities that are not sane identifiers.
@Suite(.serialized)
struct OwnerStateHostileTests {
  static let configuration = DaemonConfig().broker("Owners", "user")
    .broker("PasscodeDelayFromFailure", 2).face().passcode()

  func sensor(_ name: String, in list: Result<JSONValue, RPCError>?) -> JSONObject? {
    let sensors = (try? list?.get().objectValue?["sensors"]?.arrayValue) ?? []
    return sensors.compactMap(\.objectValue).first { $0["name"] == .string(name) }
  }

  @Test(
    "A restart (as after an idle exit) resets neither the passcode back-off nor the lockout",
    .enabled(if: getuid() == 0, "needs root (useradd, setpriv)"))
  func restartDoesNotResetTheGuessRate() throws {
    let attacker = try TestAccount(prefix: "la-guess")
    let control = try RunningDaemon.binaryPath("localauthctl", environment: "LOCALAUTHCTL_BIN")
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration)
    try daemon.start()
    defer { _ = daemon.stop() }
    let user = JSONValue.string(attacker.name)
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsSetPasscode, ["passcode": "86420", "user": user])
    _ = try admin.call(Method.sensorsEnroll, ["sensor": "face", "identity": "me", "user": user])

    // The attacker is its own prompt agent and guesses passcodes by typing them.
    let (launcher, arguments) = attacker.command(control, ["--socket", daemon.socketPath, "agent"])
    var agent = try PseudoTerminalProcess(executable: launcher, arguments: arguments)
    #expect(agent.waitFor("showing prompts"), "\(agent.text)")
    _ = try admin.call(
      Method.sensorsScript,
      [
        "sensor": "face",
        "commands": ["NOMATCH", "NOMATCH", "CANCEL", "NOMATCH", "NOMATCH", "CANCEL", "NOMATCH"],
      ])
    // Face ID stops after two failed matches and waits for the fallback choice (cancelled here).
    for _ in 0..<3 {
      _ = try attacker.run(
        control, ["--socket", daemon.socketPath, "evaluate", "biometrics", "--reason", "a"])
    }
    let guessing = try attacker.run(
      control, ["--socket", daemon.socketPath, "can-evaluate", "biometrics"])
    #expect(guessing.output.contains("biometryLockout"), "\(guessing.output)")
    let app = Process()
    let (appLauncher, appArguments) = attacker.command(
      control, ["--socket", daemon.socketPath, "evaluate", "owner", "--reason", "guess"])
    app.executableURL = URL(fileURLWithPath: appLauncher)
    app.arguments = appArguments
    app.standardOutput = FileHandle.nullDevice
    app.standardError = FileHandle.nullDevice
    try app.run()
    #expect(agent.waitFor("Passcode: "), "\(agent.text)")
    agent.type("11111\r")
    #expect(agent.waitFor("Passcode: ", count: 2), "\(agent.text)")
    agent.type("22222\r")
    #expect(agent.waitFor("the next try waits"), "\(agent.text)")
    agent.type("\u{1B}")
    app.waitUntilExit()
    let before = sensor("passcode", in: try admin.call(Method.sensorsList, ["user": user]))
    #expect(before?["failedAttempts"] == 2)
    #expect(before?["lockedOut"] == true)
    agent.signal(SIGTERM)
    _ = agent.waitForExit()

    // The attack: make the daemon exit (idle exit, a crash, a restart) and start guessing again at zero.
    admin.close()
    _ = daemon.stop()
    try daemon.start()
    let again = try daemon.connect()
    let after = sensor("passcode", in: try again.call(Method.sensorsList, ["user": user]))
    #expect(after?["failedAttempts"] == 2, "the failure count survived the restart")
    #expect(after?["lockedOut"] == true, "the back-off survived the restart")
    let face = sensor("face", in: try again.call(Method.sensorsList, ["user": user]))
    #expect(face?["lockedOut"] == true, "the biometric lockout survived the restart")
    agent = try PseudoTerminalProcess(executable: launcher, arguments: arguments)
    #expect(agent.waitFor("showing prompts"), "\(agent.text)")
    let retry = Process()
    retry.executableURL = URL(fileURLWithPath: appLauncher)
    retry.arguments = appArguments
    retry.standardOutput = FileHandle.nullDevice
    retry.standardError = FileHandle.nullDevice
    try retry.run()
    // The first thing the restarted daemon says is still "wait", before any guess is taken.
    #expect(agent.waitFor("the next try waits"), "\(agent.text)")
    agent.type("\u{1B}")
    retry.waitUntilExit()
    #expect(retry.terminationStatus == 1)
    again.close()
  }

  @Test(
    "domainState is keyed with the device key: the same enrolled set hashes differently per device")
  func domainStateCannotBeRecomputedOffline() throws {
    let config = DaemonConfig().face(enrolled: ["alice"]).passcode("1234")
    var hashes: [String] = []
    for _ in 0..<2 {
      let daemon = try RunningDaemon(arguments: [], config: config)
      try daemon.start()
      let client = try daemon.connect()
      let hash = try client.call(Method.domainState)?.get().objectValue?["biometry"]?.objectValue?[
        "stateHash"]?.stringValue
      // A restart on the same state directory (same device key) keeps the hash stable.
      client.close()
      _ = daemon.stop()
      try daemon.start()
      let again = try daemon.connect()
      let after = try again.call(Method.domainState)?.get().objectValue?["biometry"]?.objectValue?[
        "stateHash"]?.stringValue
      #expect(hash == after)
      again.close()
      _ = daemon.stop()
      hashes.append(hash ?? "")
    }
    #expect(Base64.decode(hashes[0])?.count == 16, "base64 of 16 bytes: \(hashes[0])")
    #expect(
      hashes[0] != hashes[1], "a guess of the identity names cannot be checked without the key")
  }

  @Test(
    "Enrollment refuses identities that are not sane identifiers",
    arguments: [
      "evil\u{1B}[2J", "two words", "nul\u{0}byte", "ålice", "-x",
      String(repeating: "a", count: 65),
      "line\nbreak",
    ])
  func enrollmentRefusesInsaneIdentities(_ identity: String) throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration)
    try daemon.start()
    defer { _ = daemon.stop() }
    let admin = try daemon.connect()
    let result = try admin.call(
      Method.sensorsEnroll, ["sensor": "face", "identity": .string(identity)])
    guard case .failure(let error)? = result else {
      Issue.record("enrolled \(identity.debugDescription)")
      return
    }
    #expect(error.code == .invalidParams)
    #expect(error.message.contains("ASCII letters, digits"), "\(error.message)")
    let face = sensor("face", in: try admin.call(Method.sensorsList))
    #expect(face?["enrolledCount"] == 0)
    admin.close()
  }
}
