import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// What evaluatePolicy answers for each scripted user behaviour (docs/protocol.md, "Evaluation
/// semantics").
@Suite struct EvaluationOutcomeTests {
  @Test func matchSucceedsWithSensorAndRequestID() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = harness.face.script([.match(identity: nil)], replace: false)
    let result = await client.evaluate()?.object
    #expect(result?["sensor"] == "face")
    #expect(result?["reused"] == false)
    let started = client.recorder.notifications(Notification.started)
    #expect(started.count == 1)
    #expect(started.first?["requestID"] == result?["requestID"])
  }

  @Test(arguments: [
    ([ScriptCommand.cancel], ErrorCode.userCancel),
    ([.noMatch, .noMatch, .noMatch], .authenticationFailed),
    ([.noMatch, .noMatch, .fallback], .userFallback),
    ([.disconnect], .biometryDisconnected),
  ])
  func biometricsOnlyOutcomes(script: [ScriptCommand], expected: ErrorCode) async {
    let harness = BrokerHarness(removable: true)
    let client = await harness.connect()
    let (tag, immediate) = await client.startEvaluation()
    #expect(immediate == nil)
    #expect(await client.requestID() != nil)
    _ = harness.face.script(script, replace: false)
    let result = await client.recorder.waitForResponse(tag: tag)
    #expect(result?.code == expected)
    if case .failure(let error)? = result {
      #expect(error.data["name"] == .string(expected.name))
      #expect(error.requestID != nil)
    }
  }

  @Test func faceIDOffersFallbackOnlyAfterSecondFailure() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = harness.face.script([.fallback, .noMatch, .fallback, .noMatch, .fallback], replace: false)
    #expect(await client.evaluate()?.code == .userFallback)
    let feedback = client.recorder.notifications(Notification.feedback)
    #expect(
      feedback.map { $0["feedback"]?.stringValue ?? "" } == [
        "fallbackNotOffered", "noMatch", "fallbackNotOffered", "noMatch", "awaitingChoice",
      ])
    #expect(feedback[1]["offer"] == "tryAgain")
    // The second failed match is Face ID's last: the fallback is offered and the prompt waits.
    #expect(feedback[3]["offer"] == "fallback" && feedback[3]["attemptsExhausted"] == true)
    #expect(feedback[4]["offer"] == "fallback")
  }

  @Test func touchIDOffersFallbackAfterFirstFailure() async {
    let harness = BrokerHarness(faceKind: .touchID)
    let client = await harness.connect()
    _ = harness.face.script([.noMatch, .fallback], replace: false)
    #expect(await client.evaluate()?.code == .userFallback)
  }

  @Test func emptyFallbackTitleHidesTheButton() async {
    let harness = BrokerHarness(faceKind: .touchID)
    let client = await harness.connect()
    let context = await client.createContext(["localizedFallbackTitle": ""])
    _ = harness.face.script([.noMatch, .fallback, .noMatch, .match(identity: nil)], replace: false)
    #expect(await client.evaluate(context: context)?.object?["sensor"] == "face")
  }

  /// Apple's LAPolicy page: Touch ID fails the evaluation after three failed attempts; Face ID
  /// offers the fallback after two and stops trying.
  @Test func touchIDTakesThreeFailedMatches() async {
    let harness = BrokerHarness(faceKind: .touchID)
    let client = await harness.connect()
    _ = harness.face.script([.noMatch, .noMatch, .match(identity: nil)], replace: false)
    #expect(await client.evaluate()?.object?["sensor"] == "face")
    _ = harness.face.script([.noMatch, .noMatch, .noMatch, .match(identity: nil)], replace: false)
    #expect(await client.evaluate()?.code == .authenticationFailed)
    #expect(harness.face.queuedCommands == 1)
  }

  @Test func faceIDStopsTryingAfterTwoFailedMatches() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    // Nobody can choose (no agent, no scripted choice): the prompt ends, the face is not looked at.
    _ = harness.face.script([.noMatch, .noMatch, .match(identity: nil)], replace: false)
    #expect(await client.evaluate()?.code == .authenticationFailed)
    #expect(harness.face.queuedCommands == 1, "the third presentation was not read")
    #expect(
      !client.recorder.notifications(Notification.feedback).contains {
        $0["feedback"] == "awaitingChoice"
      })
    // A scripted press of Cancel stands in for the person.
    _ = harness.face.script([.noMatch, .noMatch, .cancel], replace: true)
    #expect(await client.evaluate()?.code == .userCancel)
  }

  @Test func faceIDWithoutAFallbackButtonFailsAfterTwo() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext(["localizedFallbackTitle": ""])
    _ = harness.face.script([.noMatch, .noMatch, .fallback], replace: false)
    #expect(await client.evaluate(context: context)?.code == .authenticationFailed)
    #expect(harness.face.queuedCommands == 1)
  }

  @Test func retriesDoNotCountAsAttempts() async {
    let harness = BrokerHarness(faceKind: .touchID)
    let client = await harness.connect()
    _ = harness.face.script(
      [
        .retry(reason: .faceNotCentered), .noMatch, .retry(reason: .tooFast), .noMatch,
        .match(identity: nil),
      ],
      replace: false)
    #expect(await client.evaluate()?.object?["sensor"] == "face")
  }

  @Test func deviceOwnerFallsBackToPasscode() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: false)
    _ = harness.passcodeSensor.script([.passcode("1234")], replace: false)
    let result = await client.evaluate(.deviceOwnerAuthentication)?.object
    #expect(result?["sensor"] == "passcode")
    let fallback = client.recorder.notifications(Notification.fallback)
    #expect(fallback.first?["to"] == "passcode")
    #expect(fallback.first?["reason"] == "attemptsExhausted")
  }

  @Test func deviceOwnerCancelDoesNotFallBack() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.evaluate(.deviceOwnerAuthentication)?.code == .userCancel)
  }

  @Test func deviceOwnerWithoutEnrollmentAsksPasscodeOnly() async {
    let harness = BrokerHarness(enrolled: [])
    let client = await harness.connect()
    _ = harness.passcodeSensor.script([.passcode("0000"), .passcode("1234")], replace: false)
    let result = await client.evaluate(.deviceOwnerAuthentication)?.object
    #expect(result?["sensor"] == "passcode")
    #expect(
      client.recorder.notifications(Notification.feedback).first?["feedback"] == "wrongPasscode")
  }

  @Test func lockoutAcrossEvaluationsAndPasscodeClearsIt() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    // Face ID takes two failed matches a prompt: the fifth in a row, in the third prompt, locks.
    _ = harness.face.script([.noMatch, .noMatch, .noMatch, .noMatch, .noMatch], replace: false)
    #expect(await client.evaluate()?.code == .authenticationFailed)
    #expect(await client.evaluate()?.code == .authenticationFailed)
    #expect(await client.evaluate()?.code == .biometryLockout)
    #expect(await client.evaluate()?.code == .biometryLockout)
    _ = harness.passcodeSensor.script([.passcode("1234")], replace: false)
    #expect(await client.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.evaluate()?.object?["sensor"] == "face")
  }

  @Test func passcodeDelaysEscalateOnTheTestClock() async {
    var configuration = BrokerConfiguration()
    configuration.promptTimeout = .seconds(7200)
    let harness = BrokerHarness(configuration: configuration, enrolled: [])
    let client = await harness.connect()
    _ = harness.passcodeSensor.script(Array(repeating: .passcode("0000"), count: 6), replace: false)
    let (tag, _) = await client.startEvaluation(.deviceOwnerAuthentication)
    #expect(await client.recorder.wait { passcodeDelays(in: $0) == 1 })
    let delay = client.recorder.notifications(Notification.feedback).last
    #expect(delay?["retryAfterSeconds"] == 60)
    _ = harness.passcodeSensor.script([.passcode("1234")], replace: false)
    #expect(client.recorder.responses(tag: tag).isEmpty)
    #expect(await eventually(pace: .yielding) { harness.clock.sleeperCount >= 2 })
    harness.clock.advance(by: .seconds(61))
    #expect(await client.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "passcode")
    // A success resets the count: six new failures wait a minute again.
    _ = harness.passcodeSensor.script(Array(repeating: .passcode("0000"), count: 7), replace: false)
    let second = await client.startEvaluation(.deviceOwnerAuthentication)
    #expect(await client.recorder.wait { passcodeDelays(in: $0) == 2 })
    #expect(client.recorder.notifications(Notification.feedback).last?["retryAfterSeconds"] == 60)
    _ = await client.call(Method.cancel, ["id": .int(second.tag)])
  }

  @Test func companionApproval() async {
    let harness = BrokerHarness(companionPaired: ["watch-1"])
    let client = await harness.connect()
    _ = harness.companion.script([.match(identity: nil)], replace: false)
    #expect(
      await client.evaluate(.deviceOwnerAuthenticationWithCompanion)?.object?["sensor"] == "watch")
    _ = harness.companion.script([.disconnect], replace: false)
    #expect(
      await client.evaluate(.deviceOwnerAuthenticationWithCompanion)?.code == .companionNotAvailable
    )
  }

  @Test func notInteractiveClientsNeverPrompt() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = await client.call(
      Method.hello, ["client": ["name": "intent", "interactive": false], "protocol": 1])
    #expect(await client.evaluate()?.code == .notInteractive)
    let other = await harness.connect()
    let context = await other.createContext(["interactionNotAllowed": true])
    #expect(await other.evaluate(context: context)?.code == .notInteractive)
    #expect(await harness.broker.isEvaluating == false)
  }

  @Test func reuseWithinTheWindowSkipsThePrompt() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext(["reuseDuration": 10])
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.evaluate(context: context)?.object?["reused"] == false)
    #expect(await client.evaluate(context: context)?.object?["reused"] == true)
    harness.clock.advance(by: .seconds(11))
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.evaluate(context: context)?.object?["reused"] == false)
  }

  @Test func emptyReasonIsInvalidParams() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let result = await client.call(Method.evaluatePolicy, ["policy": 1, "localizedReason": ""])
    #expect(result?.code == .invalidParams)
    #expect(
      await client.call(Method.evaluatePolicy, ["policy": 9, "localizedReason": "x"])?.code
        == .invalidParams)
  }

  @Test func promptTimeoutEndsWithSystemCancel() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let (tag, _) = await client.startEvaluation()
    #expect(await client.requestID() != nil)
    #expect(await eventually(pace: .yielding) { harness.clock.sleeperCount >= 1 })
    harness.clock.advance(by: .seconds(61))
    guard case .failure(let error)? = await client.recorder.waitForResponse(tag: tag) else {
      Issue.record("no error")
      return
    }
    #expect(error.code == .systemCancel)
    #expect(error.data["reason"] == "timeout")
  }
}

/// How many passcodeDelay feedback notifications a client has received.
private func passcodeDelays(in messages: [RecordingClient.Message]) -> Int {
  messages.filter {
    guard case .notification(Notification.feedback, let params) = $0 else { return false }
    return params["feedback"] == "passcodeDelay"
  }.count
}
