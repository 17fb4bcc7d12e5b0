import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// System evaluations (issue 18): root acting for a user with `user`, as pam_localauthd does for sudo
/// and su. Hostile: the user's own processes and other users try to take part.
@Suite struct SystemEvaluationTests {
  static let alice: UInt32 = 63_001
  static let bob: UInt32 = 63_002

  /// A per-user broker; alice and bob have their faces enrolled and no passcode (a fresh install).
  func setUp(_ configure: (inout BrokerConfiguration) -> Void = { _ in }) async -> (
    BrokerHarness, TestClient
  ) {
    var configuration = BrokerConfiguration()
    configure(&configuration)
    let harness = BrokerHarness(
      configuration: configuration, enrolled: [], passcode: nil, owners: .perUser)
    let root = await harness.connect(pid: 1)
    for (uid, identity) in [(Self.alice, "alice-face"), (Self.bob, "bob-face")] {
      _ = await root.call(
        Method.sensorsEnroll,
        ["sensor": "face", "identity": .string(identity), "user": .int(Int(uid))])
    }
    return (harness, root)
  }

  /// Starts root's evaluation for `user` (as the module does) and returns its tag.
  func startSystem(
    _ root: TestClient, user: UInt32, requester: UInt32? = nil,
    policy: Policy = .deviceOwnerAuthentication
  ) async -> (tag: Int, immediate: Result<JSONValue, RPCError>?) {
    let tag = root.harness.nextTag()
    var params: JSONObject = [
      "policy": policy.json, "localizedReason": "sudo", "user": .int(Int(user)),
    ]
    if let requester { params["requester"] = .int(Int(requester)) }
    return (tag, await root.call(Method.evaluatePolicy, params, tag: tag))
  }

  func outcome(_ root: TestClient, _ started: (tag: Int, immediate: Result<JSONValue, RPCError>?))
    async -> Result<JSONValue, RPCError>?
  {
    if let immediate = started.immediate { return immediate }
    return await root.recorder.waitForResponse(tag: started.tag)
  }

  func failures(_ client: TestClient, of uid: UInt32) async -> (Int, Bool) {
    let list = await client.call(Method.sensorsList, ["user": .int(Int(uid))])?.object
    let face = list?["sensors"]?.arrayValue?.first { $0.objectValue?["name"] == "face" }
    return (
      face?.objectValue?["failedAttempts"]?.intValue ?? -1,
      face?.objectValue?["lockedOut"]?.boolValue ?? false
    )
  }

  @Test func malwareOfTheUserSetsAFirstPasscodeAndCannotAnswerSudo() async {
    let (harness, root) = await setUp()
    // Malware running as alice: sets her first passcode (allowed: it gates only her own apps) and
    // registers an agent that answers every prompt with it.
    let malware = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 666)
    #expect(await malware.call(Method.sensorsSetPasscode, ["passcode": "0000"])?.object != nil)
    #expect(await malware.call(Method.agentRegister)?.object?["agent"] != nil)
    // sudo with policy=deviceOwnerAuthentication; the malware answers while it runs.
    let started = await startSystem(root, user: Self.alice)
    let requestID = await root.requestID()
    for action in ["passcode", "fallback"] {
      #expect(
        await malware.call(
          Method.agentRespond,
          ["requestID": .string(requestID ?? ""), "action": .string(action), "passcode": "0000"])?
          .code == .notFound)
    }
    // The face is not at the camera.
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    let result = await outcome(root, started)
    #expect(result?.code == .authenticationFailed, "biometric-only: no passcode stage")
    #expect(malware.recorder.notifications(Notification.agentPrompt).isEmpty)
    #expect(malware.recorder.notifications(Notification.agentPasscode).isEmpty)
    #expect(root.recorder.notifications(Notification.fallback).isEmpty)
  }

  @Test func aPasscodeNeverSatisfiesASystemEvaluation() async {
    let (harness, root) = await setUp()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    // A scripted passcode sensor that would answer right: never asked, even once the face's
    // attempts are exhausted (where deviceOwnerAuthentication falls back to the passcode).
    _ = harness.passcodeSensor.script([.passcode("1111")], replace: true)
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    let result = await outcome(root, await startSystem(root, user: Self.alice))
    #expect(result?.code == .authenticationFailed)
    #expect(harness.passcodeSensor.queuedCommands == 1, "the passcode sensor was never read")
  }

  @Test func aUserWithoutAPasscodeIsAuthenticatedByFace() async {
    let (harness, root) = await setUp()
    let can = await root.call(
      Method.canEvaluatePolicy, ["policy": 2, "user": .int(Int(Self.alice))])?.object
    #expect(can?["canEvaluate"] == true)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    let result = await outcome(root, await startSystem(root, user: Self.alice))
    #expect(result?.object?["sensor"] == "face")
    #expect(result?.object?["policy"] == "deviceOwnerAuthenticationWithBiometrics")
    // Bob's face does not answer for alice.
    _ = harness.face.script(
      [.match(identity: "bob-face"), .match(identity: "bob-face"), .match(identity: "bob-face")],
      replace: true)
    #expect(
      await outcome(root, await startSystem(root, user: Self.alice))?.code == .authenticationFailed)
  }

  @Test func failuresOfSuByAnotherUserCountAgainstTheRequester() async {
    let (harness, root) = await setUp()
    let bobAgent = await harness.connect(uid: Self.bob, gid: Self.bob, pid: 777)
    _ = await bobAgent.call(Method.agentRegister)
    // alice runs `su bob` three times with her own face at the camera: Face ID takes two failed
    // matches a prompt, so the fifth, in the third su, locks her out.
    for _ in 0..<3 {
      _ = harness.face.script(
        [
          .match(identity: "alice-face"), .match(identity: "alice-face"),
          .match(identity: "alice-face"),
        ], replace: true)
      _ = await outcome(root, await startSystem(root, user: Self.bob, requester: Self.alice))
    }
    #expect(await failures(root, of: Self.bob) == (0, false), "bob is not locked out")
    #expect(await failures(root, of: Self.alice) == (5, true), "alice is")
    #expect(bobAgent.recorder.notifications(Notification.agentPrompt).isEmpty)
    // While alice is locked out, her su is refused; bob's own sudo still works.
    let refused = await outcome(
      root, await startSystem(root, user: Self.bob, requester: Self.alice))
    #expect(refused?.code == .biometryLockout)
    if case .failure(let error) = refused { #expect(error.data["reason"] == "requesterLockedOut") }
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    #expect(
      await outcome(root, await startSystem(root, user: Self.bob, requester: Self.bob))?.object?[
        "sensor"] == "face")
  }

  @Test func onlyRootNamesTheRequester() async {
    let (harness, _) = await setUp { $0.adminGroupID = 4_000 }
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
    let admin = await harness.connect(uid: 5_000, gid: 4_000)
    for client in [alice, admin] {
      let refused = await client.call(
        Method.evaluatePolicy,
        [
          "policy": 1, "localizedReason": "x", "user": .int(Int(Self.alice)),
          "requester": .int(Int(Self.bob)),
        ])
      #expect(refused?.code == .permissionDenied)
      if case .failure(let error) = refused { #expect(error.data["field"] == "requester") }
    }
  }

  @Test func deviceModeRefusesUserEvaluations() async {
    let harness = BrokerHarness(enrolled: ["owner-face"], passcode: nil, owners: .device)
    let root = await harness.connect()
    for method in [Method.evaluatePolicy, Method.canEvaluatePolicy] {
      let refused = await root.call(
        method, ["policy": 1, "localizedReason": "sudo", "user": .int(Int(Self.alice))])
      #expect(refused?.code == .permissionDenied)
      if case .failure(let error) = refused { #expect(error.data["reason"] == "deviceOwnerMode") }
    }
  }

  @Test func inDeviceModeOnlyTheOwnerOrAnAdminSetsTheFirstPasscode() async {
    var configuration = BrokerConfiguration()
    configuration.setupOwner = Self.alice
    let harness = BrokerHarness(
      configuration: configuration, enrolled: [], passcode: nil, owners: .device)
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob)
    let refused = await bob.call(Method.sensorsSetPasscode, ["passcode": "9999"])
    #expect(refused?.code == .permissionDenied)
    if case .failure(let error) = refused { #expect(error.data["reason"] == "notDeviceOwner") }
    let owner = await harness.connect(uid: Self.alice, gid: Self.alice)
    #expect(await owner.call(Method.sensorsSetPasscode, ["passcode": "1234"])?.object != nil)
    // Once set, a change needs the current passcode, whoever asks.
    #expect(
      await bob.call(Method.sensorsSetPasscode, ["passcode": "9999"])?.code == .permissionDenied)
  }

  @Test func aSystemEvaluationStartsAtOnceOverAnotherUsersParkedPrompt() async {
    let (harness, root) = await setUp()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    // alice's app sits at the passcode stage with a silent agent (nothing enrolled would match).
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 500)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 501)
    // Two failed matches, then the person chooses the passcode at the fallback choice.
    _ = harness.face.script([.noMatch, .noMatch, .fallback], replace: true)
    let (appTag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPasscode, _) = $0 { return true }
        return false
      }
    }
    #expect(!agent.recorder.notifications(Notification.agentPasscode).isEmpty)
    // bob's sudo by face: alice's prompt ends, bob's starts without any time passing.
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    let before = harness.clock.now()
    let sudo = await outcome(root, await startSystem(root, user: Self.bob))
    #expect(sudo?.object?["sensor"] == "face")
    #expect(harness.clock.now() == before)
    let ended = await app.recorder.waitForResponse(tag: appTag)
    #expect(ended?.code == .systemCancel)
    if case .failure(let error) = ended { #expect(error.data["reason"] == "systemAuthentication") }
  }

  @Test func aSystemEvaluationStartsAtOnceOverAnotherUsersPromptWaitingForTheFallbackChoice()
    async
  {
    let (harness, root) = await setUp()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    // alice's app: two failed Face ID matches, then the prompt waits for a choice nobody makes.
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 500)
    _ = await agent.call(Method.agentRegister)
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 501)
    _ = harness.face.script([.noMatch, .noMatch], replace: true)
    let (appTag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentFeedback, let params) = $0 {
          return params["feedback"] == "awaitingChoice"
        }
        return false
      }
    }
    #expect(
      agent.recorder.notifications(Notification.agentFeedback).contains {
        $0["feedback"] == "awaitingChoice"
      })
    // bob's sudo by face: alice's waiting prompt ends, bob's starts without any time passing.
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    let before = harness.clock.now()
    let sudo = await outcome(root, await startSystem(root, user: Self.bob))
    #expect(sudo?.object?["sensor"] == "face")
    #expect(harness.clock.now() == before)
    #expect(await app.recorder.waitForResponse(tag: appTag)?.code == .systemCancel)
  }

  @Test func theUsersAgentCannotMakeTheFallbackChoiceOfASystemEvaluation() async {
    let (harness, root) = await setUp()
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 500)
    _ = await agent.call(Method.agentRegister)
    // Two failed matches; the registered agent would be asked for the choice if the prompt waited.
    _ = harness.face.script([.noMatch, .noMatch], replace: true)
    let sudo = await outcome(root, await startSystem(root, user: Self.alice))
    #expect(sudo?.code == .authenticationFailed)
    // The prompt never waited for a choice, and the user's agent was told nothing of it.
    #expect(agent.recorder.notifications(Notification.agentFeedback).isEmpty)
    #expect(agent.recorder.notifications(Notification.agentPasscode).isEmpty)
  }

  @Test func overlapPreemptDoesNotEndARunningSystemEvaluation() async {
    let (harness, root) = await setUp { $0.overlap = .preempt }
    let sudo = await startSystem(root, user: Self.alice)
    _ = await root.requestID()
    // Another client of root (same uid) evaluates for itself: it waits instead of preempting.
    let other = await harness.connect(pid: 2)
    _ = await other.call(Method.sensorsSetPasscode, ["passcode": "1234"])
    let (appTag, appImmediate) = await other.startEvaluation(.deviceOwnerAuthentication)
    #expect(appImmediate == nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, sudo)?.object?["sensor"] == "face")
    // Then it runs (and ends: root has no agent to type its passcode).
    #expect(await other.recorder.waitForResponse(tag: appTag)?.code == .notInteractive)
  }

  @Test func aRunningSystemEvaluationIsNotPreemptedAndOnlyItsClientCancelsIt() async {
    let (harness, root) = await setUp { $0.adminGroupID = 4_000 }
    let first = await startSystem(root, user: Self.alice)
    _ = await root.requestID()
    let firstID = root.recorder.notifications(Notification.started).first?["requestID"]
    let second = await startSystem(root, user: Self.bob)
    #expect(second.immediate == nil)
    _ = await root.requestID(waitingFor: Notification.queued)
    // An admin who is not the requesting client cannot end it.
    let admin = await harness.connect(uid: 5_000, gid: 4_000)
    #expect(
      await admin.call(Method.cancel, ["requestID": firstID ?? .null])?.object?["cancelled"]
        == false)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, first)?.object?["sensor"] == "face")
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    #expect(await outcome(root, second)?.object?["sensor"] == "face")
  }

  /// Hostile: alice runs sudo three times at once; bob's sudo, queued after them, runs next after
  /// alice's first, not after all of hers (system evaluations take turns by requester).
  @Test func oneUsersManySudosDoNotMakeAnotherUsersSudoWaitForThemAll() async {
    let (harness, root) = await setUp()
    let alices = [
      await startSystem(root, user: Self.alice, requester: Self.alice),
      await startSystem(root, user: Self.alice, requester: Self.alice),
      await startSystem(root, user: Self.alice, requester: Self.alice),
    ]
    let bobs = await startSystem(root, user: Self.bob, requester: Self.bob)
    #expect(alices.allSatisfy { $0.immediate == nil } && bobs.immediate == nil)
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, alices[0])?.object?["sensor"] == "face")
    await root.recorder.wait { messages in
      messages.count {
        if case .notification(Notification.started, _) = $0 { return true } else { return false }
      } >= 2
    }
    let started = root.recorder.notifications(Notification.started).map { $0["id"] }
    #expect(started.count >= 2 && started[1] == .int(bobs.tag), "started: \(started)")
  }

  /// Hostile: one user's sudos count against that user's MaxQueuePerUID (not root's exemption), so
  /// they cannot fill the queue; another user's sudo is still queued.
  @Test func oneUsersSudosAreHeldToThatUsersShareOfTheQueue() async {
    let (_, root) = await setUp { $0.maxQueuePerUID = 2 }
    var alices: [(tag: Int, immediate: Result<JSONValue, RPCError>?)] = []
    for _ in 0..<3 {
      alices.append(await startSystem(root, user: Self.alice, requester: Self.alice))
    }
    // The first runs, two wait; the next one of alice's would be a third waiting.
    alices.append(await startSystem(root, user: Self.alice, requester: Self.alice))
    #expect(alices[3].immediate?.code == .queueFull)
    #expect(alices[3].immediate?.error?.data["limit"] == "MaxQueuePerUID")
    #expect(await startSystem(root, user: Self.bob, requester: Self.bob).immediate == nil)
  }

  /// Hostile: the user's own processes fill that user's share of the queue with app evaluations;
  /// the user's sudo is still taken (its share is apart from the apps').
  @Test func aUsersAppsCannotFillThatUsersShareForSudo() async {
    let (harness, root) = await setUp { $0.maxQueuePerUID = 2 }
    let apps = [
      await harness.connect(uid: Self.alice, gid: Self.alice, pid: 70),
      await harness.connect(uid: Self.alice, gid: Self.alice, pid: 71),
    ]
    // Her apps' biometric evaluations need her passcode set (as on Apple's systems).
    #expect(await apps[0].call(Method.sensorsSetPasscode, ["passcode": "0000"])?.object != nil)
    var started: [(tag: Int, immediate: Result<JSONValue, RPCError>?)] = []
    for app in apps + apps { started.append(await app.startEvaluation()) }
    #expect(started[0].immediate == nil && started[1].immediate == nil)
    #expect(started[3].immediate?.error?.data["limit"] == "MaxQueuePerUID")
    let sudo = await startSystem(root, user: Self.alice, requester: Self.alice)
    #expect(sudo.immediate == nil, "sudo refused: \(String(describing: sudo.immediate))")
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    #expect(await outcome(root, sudo)?.object?["sensor"] == "face")
  }
}
