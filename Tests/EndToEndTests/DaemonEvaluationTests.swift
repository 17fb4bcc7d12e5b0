import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The real daemon, driven through its socket by several clients: outcomes, serialization, cancel,
/// disconnect and shutdown (issue 2's end-to-end cases).
@Suite(.serialized) struct DaemonEvaluationTests {
  static let instantConfig = DaemonConfig().broker("PromptTimeoutSec", 30)
    .face(enrolled: ["alice"], answer: .wait).passcode("1234")

  func evaluateParams(_ policy: Int = 1) -> JSONObject {
    ["policy": .int(policy), "localizedReason": "end-to-end"]
  }

  func script(_ client: LineClient, _ commands: [String]) throws {
    let result = try client.call(
      Method.sensorsScript, ["sensor": "face", "commands": .array(commands.map(JSONValue.string))])
    #expect(result?.object?["queued"] != nil)
  }

  @Test func firstSessionOutcomes() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let client = try daemon.connect()
    try script(client, ["MATCH"])
    let success = try client.call(Method.evaluatePolicy, evaluateParams())?.object
    #expect(success?["sensor"] == "face")
    #expect(success?["requestID"]?.stringValue?.count == 36)

    try script(client, ["CANCEL"])
    #expect(try client.call(Method.evaluatePolicy, evaluateParams())?.code == .userCancel)

    let id = try client.request(Method.evaluatePolicy, evaluateParams())
    var requestID: String?
    while requestID == nil, let message = try client.readMessage() {
      if case .notification(Notification.started, let params)? = ServerMessage(json: message) {
        requestID = params["requestID"]?.stringValue
      }
    }
    let cancelID = try client.request(Method.cancel, ["requestID": .string(requestID ?? "")])
    var answers: [RequestID: Result<JSONValue, RPCError>] = [:]
    while answers.count < 2, let message = try client.readMessage() {
      if case .response(let rid, let result)? = ServerMessage(json: message) {
        answers[rid] = result
      }
    }
    #expect(answers[cancelID]?.object?["cancelled"] == true)
    guard case .failure(let error)? = answers[id] else {
      Issue.record("evaluation not cancelled")
      return
    }
    #expect(error.code == .appCancel)
    #expect(error.requestID == requestID)
    #expect(daemon.waitForLog(containing: "evaluation \(requestID ?? "?") finished: appCancel"))

    // Face ID takes two failed matches a prompt: the fifth in a row, in the third prompt, locks.
    try script(client, ["NOMATCH", "NOMATCH", "NOMATCH", "NOMATCH", "NOMATCH"])
    #expect(try client.call(Method.evaluatePolicy, evaluateParams())?.code == .authenticationFailed)
    #expect(try client.call(Method.evaluatePolicy, evaluateParams())?.code == .authenticationFailed)
    #expect(try client.call(Method.evaluatePolicy, evaluateParams())?.code == .biometryLockout)
    let check = try client.call(
      Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthenticationWithBiometrics"])?.object
    #expect(check?["error"]?.objectValue?["name"] == "biometryLockout")
    #expect(daemon.stop() == 0)
  }

  @Test func evaluationsFromManyConnectionsRunOneAtATime() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let admin = try daemon.connect()
    let clients = try (0..<4).map { _ in try daemon.connect() }
    var ids: [RequestID] = []
    for client in clients {
      ids.append(try client.request(Method.evaluatePolicy, evaluateParams()))
      _ = try client.readMessage()
    }
    let status = try admin.call(Method.brokerStatus)?.object
    #expect(status?["evaluating"] == 1)
    #expect(status?["queued"] == 3)
    #expect(status?["clients"] == 5)
    try script(admin, ["MATCH", "MATCH", "MATCH", "MATCH"])
    for (client, id) in zip(clients, ids) {
      let (response, _) = try client.response(to: id)
      guard case .response(_, .success(let value))? = response else {
        Issue.record("no success for \(id)")
        continue
      }
      #expect(value.objectValue?["sensor"] == "face")
    }
    daemon.stop()
  }

  @Test func disconnectLetsTheNextQueuedEvaluationStartAtOnce() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let leaver = try daemon.connect()
    let stayer = try daemon.connect()
    try leaver.request(Method.evaluatePolicy, evaluateParams())
    _ = try leaver.readMessage()
    let id = try stayer.request(Method.evaluatePolicy, evaluateParams())
    let queued = try stayer.readMessage()
    #expect(queued?.objectValue?["method"] == .string(Notification.queued))
    leaver.close()
    let started = try stayer.readMessage()
    #expect(started?.objectValue?["method"] == .string(Notification.started))
    try script(try daemon.connect(), ["MATCH"])
    guard case .response(_, .success)? = try stayer.response(to: id).0 else {
      Issue.record("the stayer got no success")
      return
    }
    daemon.stop()
  }

  @Test func aClientThatStopsSendingStillGetsItsAnswers() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let client = try daemon.connect()
    let id = try client.request(Method.evaluatePolicy, evaluateParams())
    _ = try client.readMessage()
    client.shutdownWrite()
    try script(try daemon.connect(), ["MATCH"])
    guard case .response(_, .success(let value))? = try client.response(to: id).0 else {
      Issue.record("no answer after the half-close")
      return
    }
    #expect(value.objectValue?["sensor"] == "face")
    #expect(try client.readLine(seconds: 5) == nil, "the daemon closes once nothing is owed")
    daemon.stop()
  }

  @Test func sigtermAnswersEveryPendingEvaluationWithSystemCancelAndExitsZero() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let a = try daemon.connect()
    let b = try daemon.connect()
    let running = try a.request(Method.evaluatePolicy, evaluateParams())
    _ = try a.readMessage()
    let queued = try b.request(Method.evaluatePolicy, evaluateParams())
    _ = try b.readMessage()
    kill(daemon.pid!, SIGTERM)
    for (client, id) in [(a, running), (b, queued)] {
      guard case .response(_, .failure(let error))? = try client.response(to: id).0 else {
        Issue.record("no answer for \(id)")
        continue
      }
      #expect(error.code == .systemCancel)
      #expect(error.data["reason"] == "shutdown")
    }
    #expect(daemon.stop() == 0)
  }

  @Test func sessionInactiveEndsTheRunningEvaluation() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.instantConfig)
    try daemon.start()
    let client = try daemon.connect()
    let id = try client.request(Method.evaluatePolicy, evaluateParams())
    _ = try client.readMessage()
    try client.request(Method.setActive, ["active": false])
    guard case .response(_, .failure(let error))? = try client.response(to: id).0 else {
      Issue.record("no answer")
      return
    }
    #expect(error.code == .systemCancel)
    daemon.stop()
  }

  @Test func demoModeMatchesByItselfAndAnnouncesThePasscode() throws {
    let daemon = try RunningDaemon(arguments: ["--demo"])
    try daemon.start()
    let client = try daemon.connect()
    let success = try client.call(Method.evaluatePolicy, evaluateParams(), seconds: 15)?.object
    #expect(success?["sensor"] == "face")
    #expect(daemon.log().contains("passcode is 1234"))
    daemon.stop()
  }
}

extension Result where Success == JSONValue, Failure == RPCError {
  /// The error code, or nil on success.
  var code: ErrorCode? {
    if case .failure(let error) = self { return error.code }
    return nil
  }

  /// The success object.
  var object: JSONObject? { try? get().objectValue }
}
