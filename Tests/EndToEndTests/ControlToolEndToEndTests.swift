import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The `localauthctl` binary against the real daemon: output and exit statuses 0/1/2/3.
@Suite(.serialized)
struct ControlToolEndToEndTests {
  func localauthctl(_ arguments: [String], socket: String?) throws -> ControlToolRun {
    try runControlTool(arguments, socket: socket)
  }

  @Test func evaluateStatusAndSensors() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let socket = daemon.socketPath

    let evaluate = try localauthctl(["evaluate", "owner", "--reason", "ctl test"], socket: socket)
    #expect(evaluate.status == 0)
    #expect(evaluate.output.contains("prompt shown"))
    #expect(evaluate.output.contains("success (deviceOwnerAuthentication, sensor face)"))
    #expect(evaluate.error.isEmpty, "no progress indicator without a terminal")

    let status = try localauthctl(["status"], socket: socket)
    #expect(status.status == 0)
    #expect(status.output.contains("Outcomes: success=1"))

    let sensors = try localauthctl(["--json", "sensors"], socket: socket)
    #expect(sensors.status == 0)
    let list = try JSONParser.parse(Array(sensors.output.utf8)).objectValue?["sensors"]?.arrayValue
    #expect(list?.compactMap { $0.objectValue?["name"]?.stringValue } == ["face", "passcode"])

    let can = try localauthctl(["can-evaluate", "biometrics"], socket: socket)
    #expect(can.status == 0)
    #expect(can.output.contains("biometry type faceID"))
  }

  @Test func failuresPrintTheErrorNameAndExitOne() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let socket = daemon.socketPath
    let sim = try localauthctl(["sim", "face", "CANCEL"], socket: socket)
    #expect(sim.status == 0)
    #expect(sim.output.contains("face: 1 command queued"))

    let cancelled = try localauthctl(
      ["evaluate", "biometrics", "--reason", "cancel"], socket: socket)
    #expect(cancelled.status == 1)
    #expect(cancelled.error.contains("error: userCancel (-2)"))

    let background = try localauthctl(
      ["--json", "evaluate", "owner", "--reason", "bg", "--non-interactive"], socket: socket)
    #expect(background.status == 1)
    let error = try JSONParser.parse(Array(background.output.utf8)).objectValue?["error"]?
      .objectValue
    #expect(error?["name"] == "notInteractive")
    #expect(error?["code"] == .int(-1004))

    let unenroll = try localauthctl(["unenroll", "face", "demo-user"], socket: socket)
    #expect(unenroll.status == 0)
    let cannot = try localauthctl(["can-evaluate", "biometrics"], socket: socket)
    #expect(cannot.status == 1)
    #expect(cannot.error.contains("biometryNotEnrolled"))

    // A request the daemon does not know is a wrong command line (2), not a failure (1).
    let unknown = try localauthctl(["cancel", "no-such-request"], socket: socket)
    #expect(unknown.status == 2)
    let misspelt = try localauthctl(["sim", "face", "MATCHH"], socket: socket)
    #expect(misspelt.status == 2)
    #expect(misspelt.error.hasPrefix("error: invalidParams"))
  }

  @Test func cancelByRequestIDFromAnotherProcess() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let context = LAContext(connection: daemon.connection())
    let evaluation = context.startEvaluation(
      .deviceOwnerAuthentication, localizedReason: "ctl cancel")
    let requestID = try #require(await firstEvent(of: evaluation)?.requestID)
    let cancel = try localauthctl(["cancel", requestID], socket: daemon.socketPath)
    #expect(cancel.status == 0)
    #expect(cancel.output == "cancelled \(requestID)\n")
    let error = await #expect(throws: LAError.self) { try await evaluation.outcome }
    #expect(error?.code == .appCancel)
    #expect(error?.requestID == requestID)
  }

  @Test func usageErrorsExitTwoAndAMissingDaemonExitsThree() throws {
    let usage = try localauthctl(["evaluate", "owner"], socket: "/nonexistent.sock")
    #expect(usage.status == 2)
    #expect(usage.error.contains("evaluate needs --reason TEXT"))
    #expect(usage.error.contains("Try 'localauthctl evaluate --help'"))
    #expect(try localauthctl(["bogus"], socket: nil).status == 2)

    let help = try localauthctl(["sim", "--help"], socket: nil)
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("Usage: localauthctl sim SENSOR COMMAND..."))

    let missing = try localauthctl(["status"], socket: "/nonexistent/localauthd.sock")
    #expect(missing.status == 3)
    #expect(missing.error.contains("cannot connect to /nonexistent/localauthd.sock"))
  }
}
