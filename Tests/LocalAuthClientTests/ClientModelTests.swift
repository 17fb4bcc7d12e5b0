import LocalAuthClient
import LocalAuthProtocol
import Testing

@testable import LocalAuthClientCore

@Suite struct ClientModelTests {
  @Test func laErrorCodesHaveTheSpecValues() {
    #expect(LAError.Code.allCases.count == 15)
    #expect(LAError.Code.authenticationFailed.rawValue == -1)
    #expect(LAError.Code.invalidDimensions.rawValue == -14)
    #expect(LAError.Code.notInteractive.rawValue == -1004)
    for code in LAError.Code.allCases { #expect(LAError.Code(name: code.name) == code) }
  }

  @Test func mapsDaemonErrorsToClientErrors() {
    let cancel = RPCError(.appCancel, nil, data: ["requestID": "R", "reason": "cancelled"])
    #expect(
      clientError(cancel) as? LAError == LAError(.appCancel, requestID: "R", reason: "cancelled"))
    #expect(LAError.appCancel ~= clientError(cancel))
    let busy = RPCError(.alreadyInProgress)
    #expect((clientError(busy) as? RPCError)?.code == .alreadyInProgress)
  }

  @Test func resolvesTheSocketPath() {
    let none: (String) -> Bool = { _ in false }
    #expect(
      SocketPath.resolve(explicit: "/a", environment: ["LOCALAUTHD_SOCKET": "/b"], fileExists: none)
        == "/a")
    #expect(SocketPath.resolve(environment: ["LOCALAUTHD_SOCKET": "/b"], fileExists: none) == "/b")
    let xdg = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    let userSocket = "/run/user/1000/localauthd/localauthd.sock"
    // A user's own daemon (make run) first, then the service's socket, else the user's default.
    #expect(
      SocketPath.resolve(environment: xdg, uid: 1000, fileExists: { _ in true }) == userSocket)
    #expect(
      SocketPath.resolve(environment: xdg, uid: 1000, fileExists: { $0 == SocketPath.system })
        == SocketPath.system)
    #expect(SocketPath.resolve(environment: xdg, uid: 1000, fileExists: none) == userSocket)
    #expect(
      SocketPath.resolve(environment: [:], uid: 1000, fileExists: none)
        == "/tmp/localauthd-1000/localauthd.sock")
    // Root's own daemon binds the service's socket.
    #expect(SocketPath.resolve(environment: xdg, uid: 0, fileExists: none) == SocketPath.system)
  }

  @Test func theDaemonAndItsClientsAgreeOnTheSocket() {
    for uid: UInt32 in [0, 1000] {
      for environment in [[:], ["XDG_RUNTIME_DIR": "/run/user/\(uid)"]] {
        let bound = SocketLocation.daemonDefault(uid: uid, environment: environment)
        #expect(
          SocketPath.resolve(environment: environment, uid: uid, fileExists: { $0 == bound })
            == bound, "uid \(uid) \(environment)")
      }
    }
    #expect(
      SocketLocation.daemonDefault(uid: 1000, environment: ["RUNTIME_DIRECTORY": "/run/localauthd"])
        == SocketLocation.system)
  }

  @Test func readsProgressNotifications() {
    #expect(
      LAEvaluationEvent(method: "evaluation.queued", params: ["requestID": "R", "position": 2])
        == .queued(requestID: "R", position: 2))
    #expect(
      LAEvaluationEvent(method: "evaluation.started", params: ["requestID": "R", "policy": 1])
        == .started(requestID: "R", policy: .deviceOwnerAuthenticationWithBiometrics))
    #expect(LAEvaluationEvent(method: "evaluation.started", params: [:]) == nil)
    #expect(LAEvaluationEvent(method: "monitor.event", params: ["requestID": "R"]) == nil)
  }

  /// The call a notification belongs to and the evaluation an answer names are read through the
  /// protocol types.
  @Test func readsTheCallIDAndTheAnsweredRequestID() {
    let queued: JSONObject = ["requestID": "R", "id": 7, "position": 1]
    #expect(LAEvaluationEvent.callID(announcedIn: "evaluation.queued", queued) == 7)
    #expect(
      LAEvaluationEvent.callID(announcedIn: "evaluation.started", ["requestID": "R", "id": 8])
        == 8)
    #expect(
      LAEvaluationEvent.callID(announcedIn: "evaluation.started", ["requestID": "R", "id": "x"])
        == nil)
    #expect(LAEvaluationEvent.callID(announcedIn: "evaluation.armed", queued) == nil)
    let success = EvaluationSuccess(
      requestID: "R1", policy: .deviceOwnerAuthentication, sensor: "face", reused: false)
    #expect(LAEvaluation.requestID(answeredIn: success.json) == "R1")
    #expect(
      LAEvaluation.requestID(
        answeredIn: RightAuthorizeResult(state: "authorized", requestID: "R2").json)
        == "R2")
    #expect(
      LAEvaluation.requestID(
        answeredIn: HandoffAuthorizeResult(handoff: "h", state: "authorized", requestID: "R3").json)
        == "R3")
    #expect(
      LAEvaluation.requestID(answeredIn: RightAuthorizeResult(state: "authorized").json) == nil)
  }

  @Test func routesNotificationsToTheOldestEvaluationWithoutARequestID() {
    var table = CallTable()
    let sink: @Sendable (LAEvaluationEvent) -> Void = { _ in }
    table.add(id: 1, PendingCall(method: "context.create", generation: 1, completion: { _ in }))
    table.add(
      id: 2,
      PendingCall(
        method: "context.evaluatePolicy", generation: 1, completion: { _ in }, onEvent: sink))
    table.add(
      id: 3,
      PendingCall(
        method: "context.evaluatePolicy", generation: 1, completion: { _ in }, onEvent: sink))
    #expect(table.route(.started(requestID: "A", policy: nil), callID: nil)?.id == 2)
    #expect(table.route(.queued(requestID: "B", position: 1), callID: nil)?.id == 3)
    #expect(
      table.route(
        .feedback(requestID: "A", sensor: "face", feedback: "noMatch", attempt: 1), callID: nil)?.id
        == 2)
    #expect(table.complete(id: 2)?.requestID == "A")
    #expect(table.route(.started(requestID: "A", policy: nil), callID: nil) == nil)
    #expect(table.route(.started(requestID: "B", policy: nil), callID: nil)?.id == 3)
  }

  @Test func aCancelBeforeTheRequestIDIsKnownIsOwedOnceItIs() {
    var table = CallTable()
    table.add(
      id: 7,
      PendingCall(
        method: "context.evaluatePolicy", generation: 1, completion: { _ in }, onEvent: { _ in }))
    #expect(table.requestCancel(id: 7) == nil)
    #expect(table.route(.queued(requestID: "Q", position: 1), callID: 7)?.cancelOwed == true)
    #expect(table.requestCancel(id: 7) == "Q")
  }

  @Test func aLostSocketFailsOnlyItsOwnCalls() {
    var table = CallTable()
    table.add(id: 1, PendingCall(method: "a", generation: 1, completion: { _ in }))
    table.add(id: 2, PendingCall(method: "b", generation: 2, completion: { _ in }))
    #expect(table.removeAll(generation: 1).map(\.method) == ["a"])
    #expect(table.contains(2))
  }

  @Test func readsDomainState() {
    let none = DomainStateResult(json: ["biometry": ["stateHash": nil]])
    #expect(none != nil)
    #expect(LADomainState(none).stateHash == nil)
    let some = DomainStateResult(json: ["biometry": ["stateHash": "AQI="]])
    #expect(LADomainState(some).stateHash == .init([1, 2]))
    #expect(LADomainState(nil).stateHash == nil, "the daemon could not be asked")
  }
}
