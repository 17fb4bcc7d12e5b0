import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// System evaluations (made by root for a user: the PAM module in sudo, su, polkit) are traced but
/// never reported as app bugs: the module's cancel when the password is typed, the next sudo right
/// after, and two terminals running sudo at once are its ordinary flow (issue 19).
@Suite struct SystemEvaluationDiagnosticsTests {
  static let alice: UInt32 = 61_101
  private let sudo: JSONObject = [
    "policy": 1, "localizedReason": "sudo wants to act as root for alice",
    "user": .int(Int(Self.alice)),
  ]

  /// One sudo process: a root client of the module, with the module's app id.
  private func module(_ harness: BrokerHarness, pid: Int32) async -> TestClient {
    let client = await harness.connect(pid: pid, name: "pam_localauthd")
    _ = await client.call(
      Method.hello, ["client": ["name": "pam_localauthd (sudo)", "appID": "pam_localauthd"]])
    return client
  }

  private func start(_ client: TestClient) async -> Int {
    let tag = client.harness.nextTag()
    _ = await client.call(Method.evaluatePolicy, sudo, tag: tag)
    return tag
  }

  @Test func theModulesCancelRetryAndTwoSudoAtOnceAreTracedButNotFindings() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    let user = JSONValue.int(Int(Self.alice))
    _ = await root.call(
      Method.sensorsEnroll, ["sensor": "face", "identity": "alice-face", "user": user])
    _ = await root.call(Method.sensorsSetPasscode, ["passcode": "1111", "user": user])

    // The password typed while the sensor waits: the evaluation ends in a cancel...
    let typed = await module(harness, pid: 5001)
    _ = harness.face.script([.cancel], replace: false)
    let cancelled = await typed.recorder.waitForResponse(tag: await start(typed))
    #expect(cancelled?.code == .userCancel)
    // ...and sudo runs again 40 ms later, from two terminals at once.
    harness.clock.advance(by: .milliseconds(40))
    let one = await module(harness, pid: 5002)
    let two = await module(harness, pid: 5003)
    let first = await start(one)
    let second = await start(two)
    _ = harness.face.script(
      [.match(identity: "alice-face"), .match(identity: "alice-face")], replace: false)
    #expect(await one.recorder.waitForResponse(tag: first)?.object?["sensor"] == "face")
    #expect(await two.recorder.waitForResponse(tag: second)?.object?["sensor"] == "face")

    let result = await root.call(Method.brokerFindings)?.object
    #expect(result?["findings"]?.arrayValue?.isEmpty == true, "\(String(describing: result))")
    let counts = result?["counts"]?.objectValue
    #expect(counts?["repromptAfterCancel"] == 0)
    #expect(counts?["overlappingPrompts"] == 0)
    #expect(counts?["contextChurn"] == 0)
    let traced = await root.call(Method.brokerTrace, ["appID": "pam_localauthd"])?.object
    #expect(traced?["evaluations"]?.arrayValue?.count == 3)
  }

  @Test func theSameFlowFromAnAppOfTheUserIsStillReported() async {
    let harness = BrokerHarness()
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 5101)
    _ = await app.call(
      Method.hello, ["client": ["name": "pam_localauthd (sudo)", "appID": "pam_localauthd"]])
    _ = harness.face.script([.cancel], replace: false)
    #expect(await app.evaluate()?.code == .userCancel)
    harness.clock.advance(by: .milliseconds(40))
    // Two code paths of an app, each with its own context, as apps have them.
    _ = await app.startEvaluation(context: await app.createContext())
    _ = await app.startEvaluation(context: await app.createContext())
    let counts = await app.call(Method.brokerFindings)?.object?["counts"]?.objectValue
    #expect(counts?["repromptAfterCancel"] == 1)
    #expect(counts?["overlappingPrompts"] == 1)
  }
}
