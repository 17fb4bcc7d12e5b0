import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The daemon with `Kind=fprintd` against a real fprintd and libfprint's virtual device on a private
/// system bus with polkit (FprintdStack). Needs root (private mount namespace) and fprintd installed
/// (`make deps`).
@Suite(.serialized, .enabled(if: FprintdStack.isRunnable)) struct FprintdEndToEndTests {
  private let biometrics: JSONObject = ["policy": .int(1), "localizedReason": "fprintd end-to-end"]

  private func daemon(_ stack: FprintdStack) throws -> RunningDaemon {
    let daemon = try RunningDaemon(
      arguments: [],
      config: DaemonConfig().sensor("finger", kind: "fprintd").passcode("1234"))
    daemon.extraEnvironment = ["DBUS_SYSTEM_BUS_ADDRESS": stack.busAddress]
    try daemon.start()
    return daemon
  }

  /// Sends an evaluation and waits for its `evaluation.started`; returns its id and request id.
  @discardableResult
  private func start(_ client: LineClient, _ params: JSONObject, requestID: inout String?) throws
    -> RequestID
  {
    let id = try client.request(Method.evaluatePolicy, params)
    while let message = try client.readMessage() {
      if case .notification(Notification.started, let params)? = ServerMessage(json: message) {
        requestID = params["requestID"]?.stringValue
        break
      }
    }
    return id
  }

  private func start(_ client: LineClient, _ params: JSONObject) throws -> RequestID {
    var ignored: String?
    return try start(client, params, requestID: &ignored)
  }

  /// The result of `id` and the feedback before it.
  private func finish(_ client: LineClient, _ id: RequestID) throws -> (
    Result<JSONValue, RPCError>?, [String]
  ) {
    let (answer, notes) = try client.response(to: id, seconds: 20)
    let feedback = notes.compactMap { note -> String? in
      guard case .notification(Notification.feedback, let params) = note else { return nil }
      return params["feedback"]?.stringValue
    }
    guard case .response(_, let result)? = answer else { return (nil, feedback) }
    return (result, feedback)
  }

  /// The error `id` ended with, or nil (recorded as an issue) when it did not fail.
  private func failure(_ client: LineClient, _ id: RequestID) throws -> RPCError? {
    let (result, _) = try finish(client, id)
    guard case .failure(let error)? = result else {
      Issue.record("did not fail: \(String(describing: result))")
      return nil
    }
    return error
  }

  /// Scans `print` (or, with nil, holds the virtual finger away) the moment fprintd waits for a
  /// finger; when it never does, the issue carries the daemon's log.
  private func whenFingerNeeded(
    _ stack: FprintdStack, _ daemon: RunningDaemon, scan print: String?
  ) throws {
    do {
      if let print {
        try stack.scanWhenFingerNeeded(print)
      } else {
        try stack.holdFingerWhenNeeded()
      }
    } catch {
      Issue.record("fprintd never waited for a finger; daemon log:\n\(daemon.log())")
      throw error
    }
  }

  /// A private stack with root's print enrolled, the daemon on it, and one client.
  private func rootOnStack(activatable: Bool = false) throws -> (
    FprintdStack, RunningDaemon, LineClient
  ) {
    let stack = try FprintdStack(activatable: activatable)
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    return (stack, daemon, try daemon.connect())
  }

  /// One evaluation that root's print matches the moment fprintd waits for it: it succeeds on the
  /// finger.
  private func evaluateByFinger(
    _ stack: FprintdStack, _ daemon: RunningDaemon, _ client: LineClient
  ) throws {
    let id = try start(client, biometrics)
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (result, _) = try finish(client, id)
    #expect(result?.object?["sensor"] == "finger", "\(daemon.log())")
  }

  @Test func anEnrolledPrintSucceedsAndAnotherIsNoMatchFirst() throws {
    let (stack, daemon, client) = try rootOnStack()
    try evaluateByFinger(stack, daemon, client)

    let second = try start(client, biometrics)
    try whenFingerNeeded(stack, daemon, scan: "stranger-print")
    var feedback: [String] = []
    while feedback.isEmpty, let message = try client.readMessage() {
      if case .notification(Notification.feedback, let params)? = ServerMessage(json: message) {
        feedback.append(params["feedback"]?.stringValue ?? "?")
      }
    }
    #expect(feedback == ["noMatch"])
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (result, more) = try finish(client, second)
    #expect(more.isEmpty)
    #expect(result?.object?["sensor"] == "finger")
    #expect(daemon.stop() == 0)
  }

  /// Issue 28, row 6: the client hears `evaluation.armed` once fprintd verifies (its Claim and
  /// VerifyStart were called), and the finger given then matches.
  @Test func theCaptureIsArmedOnceFprintdVerifies() throws {
    let (stack, daemon, client) = try rootOnStack()
    try stack.recordDeviceCalls()
    let id = try client.request(Method.evaluatePolicy, biometrics)
    var armed: JSONObject? = nil
    while armed == nil, let message = try client.readMessage() {
      if case .notification(Notification.armed, let params)? = ServerMessage(json: message) {
        armed = params
      }
    }
    #expect(armed?["sensor"] == "finger" && armed?["attempt"] == 1, "\(daemon.log())")
    // dbus-monitor records the calls on its own time: give it a moment to write them down.
    _ = eventually(blocking: .milliseconds(5)) { stack.deviceCalls.contains("VerifyStart") }
    let calls = stack.deviceCalls
    #expect(calls.filter { $0 == "Claim" || $0 == "VerifyStart" } == ["Claim", "VerifyStart"])
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (result, _) = try finish(client, id)
    #expect(result?.object?["sensor"] == "finger")
    #expect(daemon.stop() == 0)
  }

  @Test func aStateReadsRefreshWaitsUntilTheDeviceIsIdle() throws {
    let (stack, daemon, client) = try rootOnStack()
    try evaluateByFinger(stack, daemon, client)
    usleep(1_200_000)  // the fingers fprintd reported are now stale: the next state read refreshes
    try stack.recordDeviceCalls()
    // As pam_localauthd: canEvaluatePolicy, then evaluatePolicy at once.
    let check = try client.call(
      Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
    #expect(check?["canEvaluate"] == true)
    try evaluateByFinger(stack, daemon, client)
    // The refresh still comes, once the device is idle; never between the read and the Claim.
    _ = eventually(blocking: .milliseconds(10)) {
      stack.deviceCalls.contains("ListEnrolledFingers")
    }
    let calls = stack.deviceCalls
    #expect(calls.first == "Claim", "\(calls)")
    if let refreshed = calls.firstIndex(of: "ListEnrolledFingers"),
      let released = calls.firstIndex(of: "Release")
    {
      #expect(refreshed > released, "\(calls)")
    } else {
      Issue.record("no refresh after the release: \(calls)")
    }
    #expect(daemon.stop() == 0)
  }

  @Test func aCancelStopsTheVerifyAndReleasesTheDevice() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    var requestID: String?
    let id = try start(client, biometrics, requestID: &requestID)
    try whenFingerNeeded(stack, daemon, scan: nil)
    _ = try client.request(Method.cancel, ["requestID": .string(requestID ?? "")])
    guard let error = try failure(client, id) else { return }
    #expect(error.code == .appCancel)
    // fprintd itself: another program can claim the device and verify at once.
    let direct = try stack.verifyDirectly("root", print: "root-print")
    #expect(direct.contains("verify-match"))
    #expect(daemon.stop() == 0)
  }

  @Test func twoClientsAreQueuedNeverAlreadyInUse() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let alice = try daemon.connect()
    let bob = try daemon.connect()
    let first = try start(alice, biometrics)
    let second = try bob.request(Method.evaluatePolicy, biometrics)
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (one, _) = try finish(alice, first)
    #expect(one?.object?["sensor"] == "finger")
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (two, _) = try finish(bob, second)
    #expect(two?.object?["sensor"] == "finger")
    #expect(!daemon.log().contains("deviceBusy"))
    #expect(daemon.stop() == 0)
  }

  @Test func fprintdKilledMidWaitIsADocumentedErrorAndTheNextEvaluationWorks() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    let id = try start(client, biometrics)
    try whenFingerNeeded(stack, daemon, scan: nil)
    try stack.killFprintd()
    guard let error = try failure(client, id) else { return }
    #expect(error.code == .biometryNotAvailable)
    #expect(error.data["reason"] == "serviceUnavailable")
    try stack.restartFprintd()
    // This stack's bus cannot activate fprintd: the next evaluation waits until the daemon saw it
    // come back (NameOwnerChanged, then GetDefaultDevice). Availability alone no longer tells, since
    // fprintd's absence from the bus is not unavailability where the bus activates it.
    let back = eventually(blocking: .milliseconds(10)) {
      daemon.log().components(separatedBy: "fprintd sensor finger: using").count > 2
    }
    #expect(back, "\(daemon.log())")
    let next = try start(client, biometrics)
    try whenFingerNeeded(stack, daemon, scan: "root-print")
    let (success, _) = try finish(client, next)
    #expect(success?.object?["sensor"] == "finger")
    #expect(daemon.stop() == 0)
  }

  @Test func aFprintdThatStopsAnsweringFailsTheCallInsteadOfHanging() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    let check = try client.call(
      Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
    #expect(check?["canEvaluate"] == true)
    try stack.signalFprintd(SIGSTOP)
    defer { try? stack.signalFprintd(SIGCONT) }
    let id = try client.request(Method.evaluatePolicy, biometrics)
    guard let error = try failure(client, id) else { return }
    #expect(error.code == .biometryNotAvailable)
    #expect(error.data["reason"] == "serviceUnavailable")
    #expect(daemon.waitForLog(containing: "org.freedesktop.DBus.Error.NoReply"), "\(daemon.log())")
  }

  @Test func fprintdGoneIsActivatedByTheNextEvaluationAndNotByStateReads() throws {
    let (stack, daemon, client) = try rootOnStack(activatable: true)
    try evaluateByFinger(stack, daemon, client)
    // fprintd exits (as on its idle timer, or a crash) while nothing is claimed.
    let before = stack.activations
    try stack.killFprintd()
    #expect(daemon.waitForLog(containing: "fprintd left the bus"), "\(daemon.log())")
    // Availability checks answer from what fprintd said last, and never start it.
    for _ in 0..<15 {
      let check = try client.call(
        Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
      #expect(check?["canEvaluate"] == true)
      usleep(100_000)
    }
    #expect(!stack.fprintdIsRunning)
    #expect(stack.activations == before)
    // The next evaluation activates it through its well-known name, with nobody running fprintd-list.
    try evaluateByFinger(stack, daemon, client)
    #expect(stack.activations == before + 1)
    #expect(daemon.stop() == 0)
  }

  @Test func aFprintdThatCannotBeActivatedFailsAtOnceAndIsThenUnavailable() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    // fprintd leaves once the daemon has found it (else its first call finds nothing to leave).
    #expect(daemon.waitForLog(containing: "fprintd sensor finger: using"), "\(daemon.log())")
    try stack.killFprintd()
    #expect(daemon.waitForLog(containing: "fprintd left the bus"), "\(daemon.log())")
    // As a masked or uninstalled fprintd: the call to its name fails, and so does the evaluation.
    let id = try client.request(Method.evaluatePolicy, biometrics)
    // (Refused before the capture, or failed in it with reason serviceUnavailable: whichever of
    // the state read's background refresh and the capture reaches the bus first.)
    guard let error = try failure(client, id) else { return }
    #expect(error.code == .biometryNotAvailable)
    let check = try client.call(
      Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
    #expect(check?["canEvaluate"] == false)
    #expect(daemon.stop() == 0)
  }

  @Test func theSystemBusGoingAwayFailsTheSensorAndTheDaemonStillStopsCleanly() throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    #expect(daemon.waitForLog(containing: "fprintd sensor finger: using"), "\(daemon.log())")
    try stack.killBus()
    #expect(
      daemon.waitForLog(containing: "the system bus connection ended"), "\(daemon.log())")
    // The next capture tries to connect again, finds no bus, and fails at once.
    let id = try client.request(Method.evaluatePolicy, biometrics)
    #expect(try failure(client, id)?.code == .biometryNotAvailable)
    // Stopping the sensor with its bus gone once trapped (an unwatch of a closed bus's descriptor).
    #expect(daemon.stop() == 0, "\(daemon.log())")
  }

  @Test func aUserWithNoPrintsIsNotEnrolled() throws {
    let stack = try FprintdStack()
    let daemon = try daemon(stack)
    let client = try daemon.connect()
    guard case .failure(let error)? = try client.call(Method.evaluatePolicy, biometrics) else {
      Issue.record("evaluated without prints")
      return
    }
    #expect(error.code == .biometryNotEnrolled)
    #expect(daemon.stop() == 0)
  }
}
