import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// `agent.waiting` and `agent.waitEnded` (issue 34): an evaluation that waits on a biometric sensor
/// with no agent showing it (sudo's system evaluation) is told to its owner's agent, and to no one
/// else. Hostile: another uid's agent, and the target of another user's su, hear nothing.
@Suite struct UnshownWaitTests {
  static let alice: UInt32 = 64_201
  static let bob: UInt32 = 64_202

  /// A per-user broker; alice and bob have faces enrolled and passcodes (their apps may ask for the
  /// face); each has a user-scope agent.
  func setUp() async -> (
    harness: BrokerHarness, root: TestClient, alice: TestClient, bob: TestClient
  ) {
    let harness = BrokerHarness(enrolled: [], passcode: nil, owners: .perUser)
    let root = await harness.connect(pid: 1, name: "pam_localauthd (sudo)")
    for (uid, identity) in [(Self.alice, "alice-face"), (Self.bob, "bob-face")] {
      _ = await root.call(
        Method.sensorsEnroll,
        ["sensor": "face", "identity": .string(identity), "user": .int(Int(uid))])
      _ = await root.call(Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(uid))])
    }
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 500, name: "prompt")
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob, pid: 501, name: "prompt")
    #expect(await alice.call(Method.agentRegister)?.object?["agent"] != nil)
    #expect(await bob.call(Method.agentRegister)?.object?["agent"] != nil)
    return (harness, root, alice, bob)
  }

  /// Root's evaluation for `user` (as pam_localauthd asks for sudo), started; its tag.
  func startSystem(_ root: TestClient, user: UInt32, requester: UInt32) async -> Int {
    let tag = root.harness.nextTag()
    let params: JSONObject = [
      "policy": Policy.deviceOwnerAuthenticationWithBiometrics.json, "localizedReason": "sudo",
      "user": .int(Int(user)), "requester": .int(Int(requester)),
    ]
    #expect(await root.call(Method.evaluatePolicy, params, tag: tag) == nil, "it waits")
    return tag
  }

  func waitFor(_ client: TestClient, _ method: String) async -> JSONObject? {
    _ = await client.recorder.wait { messages in
      messages.contains {
        if case .notification(method, _) = $0 { return true } else { return false }
      }
    }
    return client.recorder.notifications(method).first
  }

  @Test func theOwnersAgentHearsOfHerSudoWaitingAndOfItsEnd() async {
    let (harness, root, alice, bob) = await setUp()
    let tag = await startSystem(root, user: Self.alice, requester: Self.alice)
    let waiting = await waitFor(alice, Notification.agentWaiting)
    #expect(waiting?["system"] == true)
    #expect(waiting?["sensor"] == "face")
    #expect(waiting?["sensorKind"] == "faceID")
    #expect(waiting?["client"]?.objectValue?["name"] == "pam_localauthd (sudo)")
    #expect(waiting?["client"]?.objectValue?["pid"] == 1)
    #expect(waiting?["localizedReason"] == "sudo")
    let requestID = waiting?["requestID"]?.stringValue
    #expect(requestID != nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await root.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    let ended = await waitFor(alice, Notification.agentWaitEnded)
    #expect(ended?["requestID"]?.stringValue == requestID)
    // Told once, never shown as a prompt; bob's agent heard nothing of it.
    #expect(alice.recorder.notifications(Notification.agentWaiting).count == 1)
    #expect(alice.recorder.notifications(Notification.agentPrompt).isEmpty)
    #expect(bob.recorder.notifications(Notification.agentWaiting).isEmpty)
    #expect(bob.recorder.notifications(Notification.agentWaitEnded).isEmpty)
  }

  @Test func theAgentToldOfASudoCannotAnswerCancelOrDelayIt() async {
    let (harness, root, alice, _) = await setUp()
    let tag = await startSystem(root, user: Self.alice, requester: Self.alice)
    let requestID = await waitFor(alice, Notification.agentWaiting)?["requestID"]?.stringValue
    let id = JSONValue.string(requestID ?? "")
    // A process of hers (her agent, or any client of hers) given the id by agent.waiting: every
    // answer is refused as for an unknown id, and a cancel ends nothing.
    for action in ["cancel", "fallback"] {
      let answer = await alice.call(
        Method.agentRespond, ["requestID": id, "action": .string(action)])
      #expect(answer?.code == .notFound, "agent.respond \(action) on a wait it does not show")
    }
    let passcode = await alice.call(
      Method.agentRespond, ["requestID": id, "action": "passcode", "passcode": "1111"])
    #expect(passcode?.code == .notFound)
    let cancelled = await alice.call(Method.cancel, ["requestID": id])
    #expect(cancelled?.object?["cancelled"] != true, "her process cancelled root's evaluation")
    #expect(root.recorder.responses(tag: tag).isEmpty, "the sudo still waits")
    // Her face still answers it: nothing was consumed, counted or locked out.
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await root.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
  }

  @Test func anotherUsersEvaluationsNeverReachTheAgent() async {
    let (harness, root, alice, bob) = await setUp()
    // bob's own sudo, then alice's `su bob` (bob's finger asked for, on alice's request).
    let own = await startSystem(root, user: Self.bob, requester: Self.bob)
    #expect(await waitFor(bob, Notification.agentWaiting) != nil)
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    _ = await root.recorder.waitForResponse(tag: own)
    let su = await startSystem(root, user: Self.bob, requester: Self.alice)
    let suArmed = await root.recorder.wait { messages in
      messages.count {
        if case .notification(Notification.armed, _) = $0 { return true } else { return false }
      } >= 2
    }
    #expect(suArmed, "the su waits on the sensor")
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    _ = await root.recorder.waitForResponse(tag: su)
    // And an app of bob's, shown by bob's agent.
    let app = await harness.connect(uid: Self.bob, gid: Self.bob, pid: 777, name: "vault-app")
    let (appTag, _) = await app.startEvaluation(.deviceOwnerAuthenticationWithBiometrics)
    #expect(await waitFor(bob, Notification.agentPrompt) != nil)
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    _ = await app.recorder.waitForResponse(tag: appTag)
    // Alice's agent heard of none of bob's evaluations, nor of the su she asked for.
    #expect(alice.recorder.notifications(Notification.agentWaiting).isEmpty)
    #expect(alice.recorder.notifications(Notification.agentWaitEnded).isEmpty)
    #expect(alice.recorder.notifications(Notification.agentPrompt).isEmpty)
    // Bob's agent: only his own sudo as a wait (the su is alice's request), his app as a prompt.
    #expect(bob.recorder.notifications(Notification.agentWaiting).count == 1)
    #expect(bob.recorder.notifications(Notification.agentWaitEnded).count == 1)
  }

  @Test func anEvaluationTheAgentShowsIsNoWait() async {
    let (harness, _, alice, _) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 778, name: "vault-app")
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthenticationWithBiometrics)
    #expect(await waitFor(alice, Notification.agentPrompt) != nil)
    #expect(await app.requestID(waitingFor: Notification.armed) != nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    #expect(alice.recorder.notifications(Notification.agentWaiting).isEmpty)
  }

  @Test func theEventsReadBackWhatTheyWrite() {
    let waiting = AgentWaitingEvent(
      requestID: "R", system: true, user: "alice", sensor: "finger", sensorKind: "touchID",
      clientName: "pam_localauthd (sudo)", clientPID: 42, clientUID: 0, localizedReason: "sudo")
    #expect(AgentWaitingEvent(object: waiting.object) == waiting)
    #expect(
      AgentWaitEndedEvent(object: AgentWaitEndedEvent(requestID: "R").object)?.requestID == "R")
    #expect(AgentWaitingEvent(object: ["system": true]) == nil)
  }
}
