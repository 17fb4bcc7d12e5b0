import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// Issue 9 at the broker: reuse that cannot downgrade, fair queue shares per uid, preemption within
/// one uid, per-connection limits, names that cannot forge log lines, app ids bound to executables.
struct HardeningTests {
  // MARK: Reuse (item 6)

  /// A context with a 60 s reuse window that succeeded once with the given policy and sensor.
  private func succeededContext(
    _ harness: BrokerHarness, _ client: TestClient, policy: Policy, passcode: Bool = false
  ) async -> String {
    let context = await client.createContext(["reuseDuration": 60])
    if passcode {
      _ = harness.face.script([.fallback], replace: false)
      _ = harness.passcodeSensor.script([.passcode("1234")], replace: false)
    } else {
      _ = harness.face.script([.match(identity: nil)], replace: false)
    }
    let first = await client.evaluate(policy, context: context)
    #expect(first?.object?["reused"] == false, "first evaluation: \(String(describing: first))")
    return context
  }

  @Test func aPasscodeSuccessIsNeverReusedForBiometryOrAnything() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext(["reuseDuration": 60])
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: false)
    _ = harness.passcodeSensor.script([.passcode("1234")], replace: false)
    let first = await client.evaluate(.deviceOwnerAuthentication, context: context)
    #expect(first?.object?["sensor"] == "passcode")
    // Biometrics only: a prompt, not reuse.
    let (tag, immediate) = await client.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: context)
    #expect(immediate == nil, "answered without a prompt: \(String(describing: immediate))")
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: tag)?.code == .userCancel)
    // The same policy again: a passcode success is not Touch ID, so it is not reused either.
    let again = await client.startEvaluation(.deviceOwnerAuthentication, context: context)
    #expect(again.immediate == nil)
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: again.tag)?.code == .userCancel)
  }

  @Test func aContextThatSucceededSucceedsAgainWithoutACapture() async {
    // Apple's log-in sample: "a previously successful authentication causes the next policy
    // evaluation to succeed without testing biometry again", with no reuse duration set.
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext()
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.evaluate(context: context)?.object?["reused"] == false)
    // Nothing scripted: a capture would wait; the answer comes at once instead.
    let (_, immediate) = await client.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: context)
    #expect(immediate?.object?["reused"] == true)
    // Another context, and an evaluation without a context, still prompt.
    let other = await client.createContext()
    let fresh = await client.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: other)
    #expect(fresh.immediate == nil)
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: fresh.tag)?.code == .userCancel)
    let implicit = await client.startEvaluation(.deviceOwnerAuthenticationWithBiometrics)
    #expect(implicit.immediate == nil)
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: implicit.tag)?.code == .userCancel)
  }

  @Test func aBiometricSuccessIsReusedOnlyForTheSamePolicy() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await succeededContext(
      harness, client, policy: .deviceOwnerAuthenticationWithBiometrics)
    #expect(
      await client.evaluate(.deviceOwnerAuthenticationWithBiometrics, context: context)?.object?[
        "reused"] == true)
    let other = await client.startEvaluation(.deviceOwnerAuthentication, context: context)
    #expect(other.immediate == nil, "a different policy must prompt")
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: other.tag)?.code == .userCancel)
  }

  @Test func noReuseWhileLockedOutOrAfterTheEnrolledSetOrPasscodeChanged() async {
    let harness = BrokerHarness()
    let admin = await harness.connect()
    let client = await harness.connect(uid: 1000)
    // Locked out: biometry-only answers biometryLockout, never reused: true.
    let locked = await succeededContext(
      harness, client, policy: .deviceOwnerAuthenticationWithBiometrics)
    // Face ID takes two failed matches a prompt: three prompts lock out.
    _ = harness.face.script(Array(repeating: .noMatch, count: 5), replace: false)
    _ = await client.evaluate()
    _ = await client.evaluate()
    _ = await client.evaluate()
    #expect(
      await client.evaluate(.deviceOwnerAuthenticationWithBiometrics, context: locked)?.code
        == .biometryLockout)
    _ = await admin.call(Method.sensorsResetLockout)
    // Enrolled set changed since the match: a prompt.
    let enrolled = await succeededContext(
      harness, client, policy: .deviceOwnerAuthenticationWithBiometrics)
    _ = await admin.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])
    let afterEnroll = await client.startEvaluation(context: enrolled)
    #expect(afterEnroll.immediate == nil, "reused across an enrollment change")
    _ = harness.face.script([.cancel], replace: false)
    #expect(await client.recorder.waitForResponse(tag: afterEnroll.tag)?.code == .userCancel)
    // Passcode cleared: biometry is not available at all.
    let cleared = await succeededContext(
      harness, client, policy: .deviceOwnerAuthenticationWithBiometrics)
    _ = await admin.call(Method.sensorsSetPasscode, ["passcode": .null])
    #expect(await client.evaluate(context: cleared)?.code == .passcodeNotSet)
    // Nothing enrolled.
    _ = await admin.call(Method.sensorsSetPasscode, ["passcode": "1234"])
    let unenrolled = await succeededContext(
      harness, client, policy: .deviceOwnerAuthenticationWithBiometrics)
    _ = await admin.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "alice"])
    _ = await admin.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "bob"])
    #expect(await client.evaluate(context: unenrolled)?.code == .biometryNotEnrolled)
  }

  // MARK: Queue share and fairness (item 3)

  @Test func oneUIDCannotTakeTheWholeQueue() async {
    var configuration = BrokerConfiguration()
    configuration.maxQueue = 100
    configuration.maxQueuePerClient = 100
    configuration.maxQueuePerUID = 3
    let harness = BrokerHarness(configuration: configuration)
    let attacker = [await harness.connect(uid: 1001), await harness.connect(uid: 1001)]
    _ = await attacker[0].startEvaluation()
    for index in 0..<3 { _ = await attacker[index % 2].startEvaluation() }
    let refused = await attacker[1].startEvaluation()
    guard case .failure(let error)? = refused.immediate else {
      Issue.record("a fourth queued evaluation of the uid was accepted")
      return
    }
    #expect(error.code == .queueFull)
    #expect(error.data["limit"] == "MaxQueuePerUID")
    let victim = await harness.connect(uid: 1002)
    #expect(await victim.startEvaluation().immediate == nil, "another uid is still queued")
  }

  @Test func anotherUIDWaitsForAtMostOnePromptOfAFloodingUID() async {
    let harness = BrokerHarness()
    let attacker = await harness.connect(uid: 1001)
    var attackerTags: [Int] = []
    for _ in 0..<10 { attackerTags.append(await attacker.startEvaluation().tag) }
    let victim = await harness.connect(uid: 1002)
    let waiting = await victim.startEvaluation()
    // The attacker's running prompt ends; the victim's evaluation runs next, not the other nine.
    _ = harness.face.script([.cancel], replace: false)
    #expect(await attacker.recorder.waitForResponse(tag: attackerTags[0])?.code == .userCancel)
    #expect(await victim.requestID() != nil)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await victim.recorder.waitForResponse(tag: waiting.tag)?.object != nil)
    #expect(attacker.recorder.responses(tag: attackerTags[1]).isEmpty)
  }

  @Test func preemptionNeverCancelsAnotherUIDsEvaluation() async {
    var configuration = BrokerConfiguration()
    configuration.overlap = .preempt
    let harness = BrokerHarness(configuration: configuration)
    let victim = await harness.connect(uid: 1002)
    let running = await victim.startEvaluation()
    #expect(await victim.requestID() != nil)
    let attacker = await harness.connect(uid: 1001)
    let second = await attacker.startEvaluation()
    #expect(second.immediate == nil)
    #expect(victim.recorder.responses(tag: running.tag).isEmpty, "another uid preempted it")
    #expect(await harness.broker.queuedCount == 1)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await victim.recorder.waitForResponse(tag: running.tag)?.object != nil)
  }

  // MARK: Per-connection limits (item 2)

  @Test func contextsRightsAndTextAreBoundedPerConnection() async {
    var configuration = BrokerConfiguration()
    configuration.maxContextsPerClient = 2
    configuration.maxRightsPerClient = 1
    configuration.maxTextBytes = 32
    let harness = BrokerHarness(configuration: configuration)
    let client = await harness.connect(uid: 1000)
    _ = await client.createContext()
    _ = await client.createContext()
    let third = await client.call(Method.contextCreate)
    #expect(third?.code == .limitExceeded)
    if case .failure(let error)? = third {
      #expect(error.data["limit"] == "MaxContextsPerConnection")
    }
    _ = await client.call(Method.rightCreate, ["requirement": "default"])
    let secondRight = await client.call(Method.rightCreate, ["requirement": "default"])
    #expect(secondRight?.code == .limitExceeded)
    let long = String(repeating: "x", count: 33)
    let reason = await client.call(
      Method.evaluatePolicy, ["policy": 1, "localizedReason": .string(long)])
    #expect(reason?.code == .invalidParams)
    if case .failure(let error)? = reason { #expect(error.data["limit"] == "MaxTextBytes") }
    let other = await harness.connect(uid: 1000)
    let title = await other.call(Method.contextCreate, ["localizedCancelTitle": .string(long)])
    #expect(title?.code == .invalidParams)
    #expect(await harness.broker.isEvaluating == false)
  }

  // MARK: Names (item 8) and app ids (item 11)

  @Test func namesWithControlCharactersAreRefused() async {
    let harness = BrokerHarness()
    let client = await harness.connect(uid: 1000)
    let forged = "app\nlocalauthd: evaluation X finished: success for sudo (pid 1, uid 0)"
    for field in ["name", "appID"] {
      var info: JSONObject = ["name": "app"]
      info[field] = .string(forged)
      let answer = await client.call(Method.hello, ["client": .object(info), "protocol": 1])
      #expect(answer?.code == .invalidParams, "\(field): \(String(describing: answer))")
    }
    let escape = await client.call(Method.hello, ["client": ["name": "\u{1B}[2Jx"], "protocol": 1])
    #expect(escape?.code == .invalidParams)
    #expect(await harness.broker.name(of: client.session) == "test")
  }

  @Test func aBoundAppIDIsClaimedOnlyByItsExecutable() async {
    var configuration = BrokerConfiguration()
    configuration.appIDBindings = ["com.example.vault": ["/usr/bin/vault"]]
    let harness = BrokerHarness(configuration: configuration)
    func hello(_ executable: String?, _ appID: String) async -> Result<JSONValue, RPCError>? {
      let recorder = RecordingClient()
      let session = await harness.broker.connect(
        peer: PeerIdentity(pid: 7, uid: 1000, gid: 1000, executable: executable), name: "x",
        channel: recorder)
      let client = TestClient(harness: harness, session: session, recorder: recorder)
      return await client.call(
        Method.hello, ["client": ["name": "x", "appID": .string(appID)], "protocol": 1])
    }
    #expect(await hello("/usr/bin/vault", "com.example.vault")?.object != nil)
    #expect(await hello("/tmp/evil", "com.example.vault")?.code == .permissionDenied)
    #expect(await hello(nil, "com.example.vault")?.code == .permissionDenied)
    #expect(await hello("/tmp/evil", "com.example.other")?.object != nil)
    configuration.requireAppIDBinding = true
    await harness.broker.reload(
      configuration: configuration, sensors: await harness.broker.sensors, passcode: nil)
    #expect(await hello("/tmp/evil", "com.example.other")?.code == .permissionDenied)
  }
}
