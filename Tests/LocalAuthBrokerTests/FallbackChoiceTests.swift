import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// Face ID's last failed match (the second): the prompt stops trying and waits for the person to
/// press the fallback button or Cancel, through the prompt agent (Apple's LAPolicy page;
/// docs/protocol.md, "Evaluation semantics").
@Suite struct FallbackChoiceTests {
  /// Every wait here: generous, as each step hops between the broker and the capture tasks, and a
  /// full `swift test` run starts hundreds of tests at once on two cores.
  static let waitSeconds: Double = 60

  /// A broker with alice's face enrolled, the device owner's agent registered, and an app.
  func setUp() async -> (BrokerHarness, agent: TestClient, app: TestClient) {
    let harness = BrokerHarness()
    let agent = await harness.connect(name: "agent")
    #expect(await agent.call(Method.agentRegister)?.object?["agent"] != nil)
    let app = await harness.connect(pid: 4343, name: "app")
    return (harness, agent, app)
  }

  /// Starts `policy` with two failed matches and a face that would match if it were still looked
  /// at; returns the tag and requestID once the agent is told the prompt waits for the choice.
  func waitForTheChoice(
    _ harness: BrokerHarness, _ agent: TestClient, _ app: TestClient, _ policy: Policy
  ) async -> (tag: Int, requestID: JSONValue) {
    _ = harness.face.script([.noMatch, .noMatch, .match(identity: nil)], replace: true)
    let before = agent.recorder.notifications(Notification.agentFeedback).count
    let waitsBefore = agent.recorder.notifications(Notification.agentFeedback).filter {
      $0["feedback"] == "awaitingChoice"
    }.count
    let (tag, immediate) = await app.startEvaluation(policy)
    #expect(immediate == nil)
    _ = await agent.recorder.wait(seconds: Self.waitSeconds) { messages in
      messages.filter {
        if case .notification(Notification.agentFeedback, let params) = $0 {
          return params["feedback"] == "awaitingChoice"
        }
        return false
      }.count > waitsBefore
    }
    let feedback = Array(agent.recorder.notifications(Notification.agentFeedback).dropFirst(before))
    #expect(
      feedback.map { $0["feedback"]?.stringValue ?? "" } == [
        "noMatch", "noMatch", "awaitingChoice",
      ]
    )
    #expect(feedback.count == 3)
    guard feedback.count == 3 else { return (tag, .null) }
    #expect(feedback[1]["attemptsExhausted"] == true && feedback[1]["offer"] == "fallback")
    #expect(feedback[2]["offer"] == "fallback")
    return (tag, feedback[2]["requestID"] ?? .null)
  }

  @Test func deviceOwnerAuthenticationGoesToThePasscodeWhenThePersonChoosesIt() async {
    let (harness, agent, app) = await setUp()
    let (tag, requestID) = await waitForTheChoice(harness, agent, app, .deviceOwnerAuthentication)
    #expect(harness.face.queuedCommands == 1, "the face is no longer looked at")
    #expect(agent.recorder.notifications(Notification.agentPasscode).isEmpty)
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "fallback"])
    _ = await agent.recorder.wait(seconds: Self.waitSeconds) { messages in
      messages.contains {
        if case .notification(Notification.agentPasscode, _) = $0 { return true }
        return false
      }
    }
    _ = await agent.call(
      Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1234"])
    #expect(
      await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)?.object?["sensor"]
        == "passcode")
    let fallback = app.recorder.notifications(Notification.fallback)
    #expect(fallback.first?["reason"] == "userFallback")
    #expect(harness.face.queuedCommands == 1)
  }

  @Test func cancelWhileWaitingIsUserCancel() async {
    let (harness, agent, app) = await setUp()
    let (tag, requestID) = await waitForTheChoice(harness, agent, app, .deviceOwnerAuthentication)
    // A passcode typed before it is asked for is not a choice: the prompt still waits.
    _ = await agent.call(
      Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1234"])
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "cancel"])
    #expect(
      await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)?.code == .userCancel)
    #expect(app.recorder.notifications(Notification.fallback).isEmpty)
  }

  @Test func biometricsOnlyEndsWithUserFallback() async {
    let (harness, agent, app) = await setUp()
    let (tag, requestID) = await waitForTheChoice(
      harness, agent, app, .deviceOwnerAuthenticationWithBiometrics)
    _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "fallback"])
    #expect(
      await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)?.code == .userFallback
    )
  }

  @Test func aWaitNobodyAnswersEndsAtThePromptTimeout() async {
    let (harness, agent, app) = await setUp()
    let (tag, _) = await waitForTheChoice(harness, agent, app, .deviceOwnerAuthentication)
    harness.clock.advance(by: BrokerConfiguration().promptTimeout + .seconds(1))
    let outcome = await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)
    #expect(outcome?.code == .systemCancel)
    if case .failure(let error)? = outcome { #expect(error.data["reason"] == "timeout") }
  }

  @Test func lockoutStillCountsEveryFailedMatch() async {
    let (harness, agent, app) = await setUp()
    // Two prompts of two failed matches each, both cancelled at the choice: four in a row.
    for _ in 0..<2 {
      let (tag, requestID) = await waitForTheChoice(
        harness, agent, app, .deviceOwnerAuthenticationWithBiometrics)
      _ = await agent.call(Method.agentRespond, ["requestID": requestID, "action": "cancel"])
      #expect(
        await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)?.code == .userCancel
      )
    }
    // The fifth locks out at once: no choice to wait for.
    _ = harness.face.script([.noMatch], replace: true)
    let (tag, _) = await app.startEvaluation()
    let locked = await app.recorder.waitForResponse(tag: tag, seconds: Self.waitSeconds)
    #expect(locked?.code == .biometryLockout)
  }
}
