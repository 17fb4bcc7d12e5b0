import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// The passcode back-off (issue 18): every judged guess is one step of the schedule, wherever it comes
/// from: a prompt parked at the passcode before the back-off began, or `oldPasscode`.
@Suite struct PasscodeBackOffTests {
  static let alice: UInt32 = 64_001

  /// alice (passcode 1111, nothing enrolled) with an agent, and her app's evaluation parked at the
  /// passcode prompt.
  func parkedPrompt() async -> (BrokerHarness, TestClient, TestClient, JSONValue) {
    var configuration = BrokerConfiguration()
    configuration.promptTimeout = .seconds(100_000)
    let harness = BrokerHarness(configuration: configuration, enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 900)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 901)
    _ = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPasscode, _) = $0 { return true }
        return false
      }
    }
    let requestID = agent.recorder.notifications(Notification.agentPasscode).first?["requestID"]
    return (harness, agent, app, requestID ?? .null)
  }

  func failures(_ harness: BrokerHarness) async -> Int {
    await harness.broker.ownerState(Self.alice).consecutivePasscodeFailures
  }

  /// The agent types `passcode`; returns the feedback it gets for it (wrongPasscode or passcodeDelay).
  func type(_ passcode: String, _ agent: TestClient, _ requestID: JSONValue) async -> JSONValue? {
    let before = agent.recorder.notifications(Notification.agentFeedback).count
    _ = await agent.call(
      Method.agentRespond,
      ["requestID": requestID, "action": "passcode", "passcode": .string(passcode)])
    _ = await agent.recorder.wait { messages in
      messages.filter {
        if case .notification(Notification.agentFeedback, _) = $0 { return true }
        return false
      }.count > before
    }
    return agent.recorder.notifications(Notification.agentFeedback).dropFirst(before).first?[
      "feedback"]
  }

  /// Types a wrong passcode until one is judged (the prompt may still be waiting out the back-off).
  func typeUntilJudged(_ agent: TestClient, _ requestID: JSONValue) async -> Bool {
    for _ in 0..<50 {
      if await type("0000", agent, requestID) == "wrongPasscode" { return true }
      await Task.yield()
    }
    return false
  }

  @Test func sixGuessesThenTheScheduleHoldsAcrossOldPasscodeAndAParkedPrompt() async {
    let (harness, agent, app, requestID) = await parkedPrompt()
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 902)
    let change: JSONObject = ["passcode": "2222", "oldPasscode": "0000"]
    // Six wrong guesses through oldPasscode while the prompt is parked: all judged.
    for _ in 0..<6 {
      let wrong = await alice.call(Method.sensorsSetPasscode, change)
      if case .failure(let error)? = wrong { #expect(error.data["reason"] == "wrongPasscode") }
    }
    #expect(await failures(harness) == 6)
    // The back-off runs: neither another oldPasscode nor the parked prompt's guess is judged.
    let refused = await alice.call(Method.sensorsSetPasscode, change)
    if case .failure(let error)? = refused {
      #expect(error.data["reason"] == "passcodeDelay")
      #expect(error.data["retryAfterSeconds"] == 60)
    }
    #expect(await type("0000", agent, requestID) == "passcodeDelay")
    #expect(await type("1111", agent, requestID) == "passcodeDelay", "right, but not judged")
    #expect(await failures(harness) == 6)
    // After 60 s one guess, then 5 minutes.
    harness.clock.advance(by: .seconds(60))
    #expect(await typeUntilJudged(agent, requestID))
    #expect(await failures(harness) == 7)
    let second = await alice.call(Method.sensorsSetPasscode, change)
    if case .failure(let error)? = second { #expect(error.data["retryAfterSeconds"] == 300) }
    #expect(await type("1111", agent, requestID) == "passcodeDelay")
    #expect(await failures(harness) == 7)
    // After 5 more minutes the right passcode is judged and answers the prompt.
    harness.clock.advance(by: .seconds(300))
    var answered = false
    for _ in 0..<20 where !answered {
      _ = await agent.call(
        Method.agentRespond, ["requestID": requestID, "action": "passcode", "passcode": "1111"])
      answered = await app.recorder.wait(seconds: 0.5) { messages in
        messages.contains {
          if case .response(_, .success) = $0 { return true } else { return false }
        }
      }
    }
    #expect(answered)
    #expect(await failures(harness) == 0)
  }

  @Test func theScheduleIsSixGuessesThenOneMinuteFiveFifteenAndAnHour() {
    let configuration = BrokerConfiguration()
    #expect(configuration.passcodeDelayFromFailure == 6)
    #expect(
      configuration.passcodeDelays == [.seconds(60), .seconds(300), .seconds(900), .seconds(3600)])
  }
}
