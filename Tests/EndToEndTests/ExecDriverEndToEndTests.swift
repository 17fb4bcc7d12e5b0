import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The real daemon with an out-of-process driver (`Kind=exec`): the example driver of
/// Examples/drivers as its face sensor, driven through its camera FIFO.
@Suite(.serialized) struct ExecDriverEndToEndTests {
  private struct Setup {
    let daemon: RunningDaemon
    let camera: String

    init() throws {
      let directory = NSTemporaryDirectory() + "localauthd-exec-\(UUID().uuidString.prefix(8))"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      camera = directory + "/camera"
      let state = directory + "/enrolled.json"
      try #"{"\#(getuid())": ["my-face"]}"#.write(toFile: state, atomically: true, encoding: .utf8)
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let driver = root.appendingPathComponent("Examples/drivers/virtual-face.py").path
      daemon = try RunningDaemon(
        arguments: [],
        config: DaemonConfig()
          .sensor(
            "face", kind: "exec",
            [
              "Biometry": "faceID",
              "Exec": "/usr/bin/python3 \(driver) --control \(camera) --state \(state)",
              "RestartDelayMs": "10",
            ]
          ).passcode("1234"))
      try daemon.start()
    }

    func show(_ line: String) throws {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: camera))
      try handle.write(contentsOf: Data((line + "\n").utf8))
      try handle.close()
    }

    /// Waits until the driver is ready (the sensor evaluable); returns whether it became so.
    func waitUntilReady(_ client: LineClient) throws -> Bool {
      try eventually(blocking: .milliseconds(10)) {
        let check = try client.call(
          Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
        return check?["canEvaluate"] == true
      }
    }

    /// The pid of the driver's latest start, from the daemon's log.
    func driverPIDs() -> [Int32] {
      daemon.log().split(separator: "\n").compactMap { line in
        guard let range = line.range(of: "driver face started (pid ") else { return nil }
        return Int32(line[range.upperBound...].prefix { $0.isNumber })
      }
    }
  }

  private let biometrics: JSONObject = ["policy": .int(1), "localizedReason": "exec end-to-end"]

  @Test func aShownFaceAuthenticatesAndAStrangerIsFeedbackFirst() throws {
    let setup = try Setup()
    let client = try setup.daemon.connect()
    #expect(try setup.waitUntilReady(client))
    try setup.show("SHOW my-face")
    let success = try client.call(Method.evaluatePolicy, biometrics)?.object
    #expect(success?["sensor"] == "face")

    try setup.show("SHOW stranger")
    try setup.show("SHOW my-face")
    let id = try client.request(Method.evaluatePolicy, biometrics)
    var feedback: [String] = []
    var result: Result<JSONValue, RPCError>?
    while result == nil, let message = try client.readMessage() {
      switch ServerMessage(json: message) {
      case .notification(Notification.feedback, let params)?:
        feedback.append(params["feedback"]?.stringValue ?? "?")
      case .response(id, let answer)?:
        result = answer
      default: break
      }
    }
    #expect(feedback == ["noMatch"])
    #expect(result?.object?["sensor"] == "face")
    #expect(setup.daemon.stop() == 0)
  }

  @Test func aDriverKilledMidWaitIsADocumentedErrorAndItComesBack() throws {
    let setup = try Setup()
    let client = try setup.daemon.connect()
    #expect(try setup.waitUntilReady(client))
    let id = try client.request(Method.evaluatePolicy, biometrics)
    var started = false
    while !started, let message = try client.readMessage() {
      if case .notification(Notification.started, _)? = ServerMessage(json: message) {
        started = true
      }
    }
    let pid = try #require(setup.driverPIDs().last)
    kill(pid, SIGKILL)
    let (answer, _) = try client.response(to: id)
    guard case .response(_, .failure(let error))? = answer else {
      Issue.record("the evaluation did not fail: \(String(describing: answer))")
      return
    }
    #expect(error.code == .biometryNotAvailable)
    // driverCrashed when the capture was already waiting; driverNotReady when the kill won the race
    // with the capture's start (the driver was then already down).
    let reason = error.data["reason"]?.stringValue ?? ""
    #expect(["driverCrashed", "driverNotReady"].contains(reason), "\(reason)")
    #expect(setup.daemon.waitForLog(containing: "killed by signal 9: driverCrashed"))

    #expect(try setup.waitUntilReady(client))
    try setup.show("SHOW my-face")
    #expect(try client.call(Method.evaluatePolicy, biometrics)?.object?["sensor"] == "face")
    let pids = setup.driverPIDs()
    #expect(pids.count == 2)
    #expect(setup.daemon.stop() == 0)
    // Stopping the daemon stops its driver: no orphan is left running.
    #expect(kill(pids[1], 0) == -1)
  }
}
