import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// Prompt agents (issue 11): who sees a prompt, how the person's answers reach the evaluation.
@Suite struct PromptAgentTests {
  static let alice: UInt32 = 62_001
  static let bob: UInt32 = 62_002

  /// A per-user broker where alice and bob have passcodes and nothing enrolled (policy 2 goes to the passcode).
  func setUp() async -> (BrokerHarness, TestClient, TestClient) {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    for (uid, passcode) in [(Self.alice, "1111"), (Self.bob, "2222")] {
      _ = await root.call(
        Method.sensorsSetPasscode, ["passcode": .string(passcode), "user": .int(Int(uid))])
    }
    let aliceAgent = await harness.connect(uid: Self.alice, gid: Self.alice, name: "agent")
    let bobAgent = await harness.connect(uid: Self.bob, gid: Self.bob, name: "agent")
    #expect(await aliceAgent.call(Method.agentRegister)?.object?["agent"] != nil)
    #expect(await bobAgent.call(Method.agentRegister)?.object?["agent"] != nil)
    return (harness, aliceAgent, bobAgent)
  }

  func waitFor(_ client: TestClient, _ method: String, count: Int = 1) async -> [JSONObject] {
    _ = await client.recorder.wait { messages in
      messages.filter {
        if case .notification(method, _) = $0 { return true } else { return false }
      }.count >= count
    }
    return client.recorder.notifications(method)
  }

  @Test func theOwnersAgentShowsThePromptAndTheTypedPasscodeAnswersIt() async {
    let (harness, agent, bobAgent) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 777, name: "vault-app")
    let (tag, immediate) = await app.startEvaluation(.deviceOwnerAuthentication)
    #expect(immediate == nil)
    let prompt = await waitFor(agent, Notification.agentPrompt).first
    #expect(prompt?["localizedReason"] == "test")
    #expect(prompt?["client"]?.objectValue?["name"] == "vault-app")
    #expect(prompt?["client"]?.objectValue?["pid"] == 777)
    #expect(prompt?["policy"] == "deviceOwnerAuthentication")
    let requestID = prompt?["requestID"]?.stringValue ?? ""
    _ = await waitFor(agent, Notification.agentPasscode)
    // A wrong passcode: feedback to the agent, which asks again.
    #expect(
      await agent.call(
        Method.agentRespond,
        ["requestID": .string(requestID), "action": "passcode", "passcode": "2222"])?.object == [:])
    let feedback = await waitFor(agent, Notification.agentFeedback)
    #expect(feedback.last?["feedback"] == "wrongPasscode")
    #expect(
      await agent.call(
        Method.agentRespond,
        ["requestID": .string(requestID), "action": "passcode", "passcode": "1111"])?.object == [:])
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "passcode")
    #expect(await waitFor(agent, Notification.agentEnded).first?["result"] == "success")
    // Bob's agent saw nothing of it, and cannot answer it.
    #expect(bobAgent.recorder.notifications(Notification.agentPrompt).isEmpty)
    #expect(
      await bobAgent.call(
        Method.agentRespond, ["requestID": .string(requestID), "action": "cancel"])?
        .code == .notFound)
  }

  @Test func cancelFromTheAgentIsUserCancel() async {
    let (harness, agent, _) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    let requestID = await waitFor(agent, Notification.agentPrompt).first?["requestID"] ?? .null
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "cancel"])
    #expect(await app.recorder.waitForResponse(tag: tag)?.code == .userCancel)
    #expect(await waitFor(agent, Notification.agentEnded).first?["result"] == "userCancel")
  }

  @Test func anotherUsersAgentCannotAnswerAndOthersCannotRespond() async {
    let (harness, agent, bobAgent) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    let requestID = await waitFor(agent, Notification.agentPrompt).first?["requestID"] ?? .null
    // Bob's agent and alice's app (not an agent) get notFound, exactly as for an unknown id.
    for client in [bobAgent, app] {
      #expect(
        await client.call(
          Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1111"])?
          .code == .notFound)
    }
    #expect(
      await bobAgent.call(Method.agentRespond, ["requestID": "nope", "action": "cancel"])?.code
        == .notFound)
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "cancel"])
    #expect(await app.recorder.waitForResponse(tag: tag)?.code == .userCancel)
  }

  @Test func withoutAnAgentOrScriptThePasscodeIsNotInteractiveAtOnce() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    let outcome = await app.evaluate(.deviceOwnerAuthentication)
    #expect(outcome?.code == .notInteractive)
    if case .failure(let error) = outcome { #expect(error.data["reason"] == "noAgent") }
    // Nobody was shown a prompt, so the app is not told one was (issue 29, item 6).
    #expect(app.recorder.notifications(Notification.started).isEmpty)
    // A scripted passcode stands in for the person.
    _ = harness.passcodeSensor.script([.passcode("1111")], replace: true)
    #expect(await app.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
    #expect(app.recorder.notifications(Notification.started).count == 1)
  }

  @Test func aProcessScopedAgentWinsForItsProcessOnly() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    // The agents are of the user running the test, whose own process (a real one) they name:
    // root in `make test`, anyone in `make check`.
    let (uid, gid) = (getuid(), getgid())
    let root = await harness.connect()
    _ = await root.call(Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(uid))])
    let me = getpid()
    let general = await harness.connect(uid: uid, gid: gid, name: "general")
    let scoped = await harness.connect(uid: uid, gid: gid, name: "scoped")
    _ = await general.call(Method.agentRegister)
    let registered = await scoped.call(
      Method.agentRegister, ["scope": "process", "pid": .int(Int(me))])
    #expect(registered?.object?["scope"]?.objectValue?["kind"] == "process")
    let fromProcess = await harness.connect(uid: uid, gid: gid, pid: me)
    let (first, _) = await fromProcess.startEvaluation(.deviceOwnerAuthentication)
    let prompt = await waitFor(scoped, Notification.agentPrompt).first
    #expect(general.recorder.notifications(Notification.agentPrompt).isEmpty)
    _ = await scoped.call(
      Method.agentRespond, ["requestID": prompt?["requestID"] ?? .null, "action": "cancel"])
    #expect(await fromProcess.recorder.waitForResponse(tag: first)?.code == .userCancel)
    let other = await harness.connect(uid: uid, gid: gid, pid: 31_337)
    let (second, _) = await other.startEvaluation(.deviceOwnerAuthentication)
    let generalPrompt = await waitFor(general, Notification.agentPrompt).first
    _ = await general.call(
      Method.agentRespond, ["requestID": generalPrompt?["requestID"] ?? .null, "action": "cancel"])
    #expect(await other.recorder.waitForResponse(tag: second)?.code == .userCancel)
    // A process of another user cannot be named.
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
    #expect(
      await alice.call(Method.agentRegister, ["scope": "process", "pid": .int(Int(me))])?.code
        == .invalidParams)
  }

  @Test func registrationsAreLimited() async {
    // One agent per scope, so the limit is reached with different scopes: the test's user's
    // agent and one for this test's own process (a real process of that user: root in
    // `make test`, anyone in `make check`) fill a limit of 2.
    var configuration = BrokerConfiguration()
    configuration.maxAgentsPerUser = 2
    let harness = BrokerHarness(configuration: configuration, enrolled: [], owners: .perUser)
    let (uid, gid) = (getuid(), getgid())
    let agents = [
      await harness.connect(uid: uid, gid: gid), await harness.connect(uid: uid, gid: gid),
    ]
    #expect(await agents[0].call(Method.agentRegister)?.object?["agent"] != nil)
    #expect(
      await agents[1].call(Method.agentRegister, ["scope": "process", "pid": .int(Int(getpid()))])?
        .object?["agent"] != nil)
    let third = await harness.connect(uid: uid, gid: gid)
    // A third scope: the parent process (swift test's, of the same user).
    let refused = await third.call(
      Method.agentRegister, ["scope": "process", "pid": .int(Int(getppid()))])
    #expect(refused?.code == .limitExceeded)
    if case .failure(let error) = refused { #expect(error.data["limit"] == "MaxAgentsPerUser") }
    // Another user is not affected, and a second registration on one connection is refused.
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob)
    #expect(await bob.call(Method.agentRegister)?.object?["agent"] != nil)
    #expect(await bob.call(Method.agentRegister)?.code == .alreadyInProgress)
    // Unregistering frees a place.
    _ = await agents[0].call(Method.agentUnregister)
    #expect(await third.call(Method.agentRegister)?.object?["agent"] != nil)
    let odd = await harness.connect(uid: Self.bob, gid: Self.bob)
    #expect(await odd.call(Method.agentRegister, ["scope": "planet"])?.code == .invalidParams)
  }

  @Test func anAgentThatGoesAwayEndsItsPromptWithSystemCancel() async {
    let (harness, agent, _) = await setUp()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await waitFor(agent, Notification.agentPrompt)
    await harness.broker.disconnect(agent.session)
    let outcome = await app.recorder.waitForResponse(tag: tag)
    #expect(outcome?.code == .systemCancel)
    if case .failure(let error) = outcome { #expect(error.data["reason"] == "agentGone") }
  }

  @Test func fallbackFromTheAgentGoesToThePasscode() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    _ = await root.call(
      Method.sensorsEnroll,
      ["sensor": "face", "identity": "alice-face", "user": .int(Int(Self.alice))])
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    _ = harness.face.script([.noMatch, .noMatch], replace: true)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    let requestID = await waitFor(agent, Notification.agentPrompt).first?["requestID"] ?? .null
    _ = await waitFor(agent, Notification.agentFeedback, count: 2)
    // A passcode while the face is asked for is refused: the prompt is not asking for one.
    #expect(
      await agent.call(
        Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1111"])?
        .code == .invalidParams)
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "fallback"])
    _ = await waitFor(agent, Notification.agentPasscode)
    _ = await agent.call(
      Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1111"])
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "passcode")
  }

  @Test func duringTheBackOffAGuessIsRefusedUncheckedAndCancelStillWorks() async {
    var configuration = BrokerConfiguration()
    configuration.passcodeDelayFromFailure = 1
    let harness = BrokerHarness(configuration: configuration, enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    let requestID = await waitFor(agent, Notification.agentPrompt).first?["requestID"] ?? .null
    _ = await agent.call(
      Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "0000"])
    _ = await waitFor(agent, Notification.agentFeedback, count: 2)
    // The back-off runs (the test clock never moves): the right passcode is refused unchecked.
    _ = await agent.call(
      Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1111"])
    let feedback = await waitFor(agent, Notification.agentFeedback, count: 3)
    #expect(feedback.map { $0["feedback"] } == ["wrongPasscode", "passcodeDelay", "passcodeDelay"])
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "cancel"])
    #expect(await app.recorder.waitForResponse(tag: tag)?.code == .userCancel)
  }
}
