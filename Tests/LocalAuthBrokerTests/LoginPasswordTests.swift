import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// The login password as the passcode (issue 31): a `PasswordSensor` with a fake checker stands in
/// for localauthd-password-helper. The owner's usable password satisfies "a passcode is set", a typed
/// guess is checked as the owner's password (never another uid's), every check counts in the same
/// back-off, and the prompts say "Password".
@Suite struct LoginPasswordTests {
  static let alice: UInt32 = 64_101
  static let bob: UInt32 = 64_102
  static let password = "correct horse battery staple"

  /// alice with a login password and no localauthd passcode; bob with neither; a face enrolled for
  /// nobody (so deviceOwnerAuthentication goes to the password at once).
  func harness(enrolled: [String] = []) async -> (
    BrokerHarness, FakePasswordChecker, PasswordSensor
  ) {
    var configuration = BrokerConfiguration()
    configuration.promptTimeout = .seconds(100_000)
    let checker = FakePasswordChecker([Self.alice: Self.password])
    let sensor = PasswordSensor(name: "password", checker: checker)
    await sensor.refresh(Self.alice)
    await sensor.refresh(Self.bob)
    let harness = BrokerHarness(
      configuration: configuration, enrolled: enrolled, passcode: nil, owners: .perUser,
      password: sensor)
    return (harness, checker, sensor)
  }

  /// alice's agent and app, the app's evaluation of `policy` at the password prompt; the prompt's
  /// agent.prompt and agent.passcode params.
  func atThePrompt(_ harness: BrokerHarness, policy: Policy = .deviceOwnerAuthentication) async
    -> (agent: TestClient, app: TestClient, prompt: JSONObject?, passcode: JSONObject?)
  {
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 900)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 901)
    _ = await app.startEvaluation(policy)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPasscode, _) = $0 { return true }
        return false
      }
    }
    return (
      agent, app, agent.recorder.notifications(Notification.agentPrompt).first,
      agent.recorder.notifications(Notification.agentPasscode).first
    )
  }

  /// The agent types `text`; returns the feedback it gets for it, or nil when none came.
  func type(_ text: String, _ agent: TestClient, _ requestID: JSONValue) async -> JSONValue? {
    let before = agent.recorder.notifications(Notification.agentFeedback).count
    _ = await agent.call(
      Method.agentRespond,
      ["requestID": requestID, "action": "passcode", "passcode": .string(text)])
    _ = await agent.recorder.wait(seconds: 2) { messages in
      messages.filter {
        if case .notification(Notification.agentFeedback, _) = $0 { return true }
        return false
      }.count > before
    }
    return agent.recorder.notifications(Notification.agentFeedback).dropFirst(before).first?[
      "feedback"]
  }

  func succeeded(_ app: TestClient) async -> Bool {
    await app.recorder.wait(seconds: 2) { messages in
      messages.contains {
        if case .response(_, .success) = $0 { return true } else { return false }
      }
    }
  }

  /// canEvaluatePolicy for `uid`: whether, and the error's name.
  func canEvaluate(_ harness: BrokerHarness, _ uid: UInt32, _ policy: Policy) async -> (
    Bool, String?
  ) {
    let client = await harness.connect(uid: uid, gid: uid)
    let result = await client.call(Method.canEvaluatePolicy, ["policy": policy.json])?.object
    let can = result?["canEvaluate"]?.boolValue ?? false
    return (can, result?["error"]?.objectValue?["name"]?.stringValue)
  }

  @Test func aUsablePasswordIsAPasscodeAndNoneIsPasscodeNotSet() async {
    let (harness, checker, _) = await harness()
    #expect(await canEvaluate(harness, Self.alice, .deviceOwnerAuthentication) == (true, nil))
    #expect(
      await canEvaluate(harness, Self.bob, .deviceOwnerAuthentication) == (false, "passcodeNotSet"))
    // Biometry needs a passcode: alice's password is one (her face is not enrolled), bob has none.
    #expect(
      await canEvaluate(harness, Self.alice, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryNotEnrolled"
      ))
    #expect(
      await canEvaluate(harness, Self.bob, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "passcodeNotSet"
      ))
    #expect(checker.checks.isEmpty, "asking never checks a password")
  }

  @Test func theRightPasswordSucceedsAndThePromptSaysPassword() async {
    let (harness, checker, _) = await harness()
    let (agent, app, prompt, passcode) = await atThePrompt(harness)
    #expect(prompt?["secret"] == "password")
    #expect(prompt?["fallbackTitle"] == "Enter Password")
    #expect(passcode?["secret"] == "password")
    let requestID = passcode?["requestID"] ?? .null
    #expect(await type("wrong", agent, requestID) == "wrongPasscode")
    _ = await agent.call(
      Method.agentRespond,
      ["requestID": requestID, "action": "passcode", "passcode": .string(Self.password)])
    #expect(await succeeded(app))
    #expect(
      checker.checks.map(\.uid) == [Self.alice, Self.alice], "only alice's password is checked")
    #expect(checker.checks.last?.password == Self.password)
    #expect(await harness.broker.ownerState(Self.alice).consecutivePasscodeFailures == 0)
  }

  @Test func sixWrongPasswordsThenTheBackOffAndTheSeventhIsNotChecked() async {
    let (harness, checker, _) = await harness()
    let (agent, _, _, passcode) = await atThePrompt(harness)
    let requestID = passcode?["requestID"] ?? .null
    for _ in 0..<6 { #expect(await type("guess", agent, requestID) == "wrongPasscode") }
    #expect(await harness.broker.ownerState(Self.alice).consecutivePasscodeFailures == 6)
    #expect(await type(Self.password, agent, requestID) == "passcodeDelay")
    #expect(checker.checks.count == 6, "a guess during the back-off never reaches the checker")
  }

  @Test func anUnreachableHelperIsNotAGuess() async {
    let (harness, checker, _) = await harness()
    let (agent, _, _, passcode) = await atThePrompt(harness)
    checker.setReachable(false)
    let requestID = passcode?["requestID"] ?? .null
    #expect(await type("guess", agent, requestID) == "passcodeDelay")
    #expect(await harness.broker.ownerState(Self.alice).consecutivePasscodeFailures == 0)
  }

  @Test func aLongPasswordIsAcceptedOnlyByThePasswordStage() async {
    let (harness, checker, _) = await harness()
    let (agent, _, _, passcode) = await atThePrompt(harness)
    let requestID = passcode?["requestID"] ?? .null
    let long = String(repeating: "p", count: 200)
    #expect(await type(long, agent, requestID) == "wrongPasscode")
    #expect(checker.checks.last?.password == long)
    let tooLong = await agent.call(
      Method.agentRespond,
      [
        "requestID": requestID, "action": "passcode",
        "passcode": .string(String(repeating: "p", count: 513)),
      ])
    guard case .failure(let error)? = tooLong else {
      Issue.record("513 bytes is past the helper's limit")
      return
    }
    #expect(error.code == .invalidParams)
  }

  @Test func theSimulatedPasscodeStillSaysPasscode() async {
    let harness = BrokerHarness(enrolled: [], passcode: "1234", owners: .device)
    let agent = await harness.connect()
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(pid: 901)
    _ = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPasscode, _) = $0 { return true }
        return false
      }
    }
    #expect(agent.recorder.notifications(Notification.agentPrompt).first?["secret"] == "passcode")
    #expect(agent.recorder.notifications(Notification.agentPasscode).first?["secret"] == "passcode")
  }

  @Test func aPasswordSensorCachesTheAnswerAndAssumesAPasswordBeforeIt() async {
    let checker = FakePasswordChecker([Self.alice: Self.password])
    let sensor = PasswordSensor(name: "password", checker: checker)
    #expect(sensor.readiness(for: Self.bob).enrolled, "not asked yet: a password is assumed")
    await sensor.refresh(Self.bob)
    #expect(!sensor.readiness(for: Self.bob).enrolled)
    #expect(sensor.state(for: Self.alice).kind == .passcode)
    checker.setReachable(false)
    await sensor.refresh(Self.alice)
    await sensor.refresh(Self.alice)
    #expect(sensor.readiness(for: Self.alice).enrolled, "an unanswered question keeps the answer")
    sensor.stop()
    #expect(!sensor.readiness(for: Self.alice).available)
  }
}
