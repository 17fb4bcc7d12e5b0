import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Sensors
import Testing

@testable import LocalAuthBroker

/// Per-user owners (issue 11): enrollments, passcodes, counters and lockout belong to one account.
@Suite struct OwnerTests {
  static let alice: UInt32 = 61_001
  static let bob: UInt32 = 61_002

  /// A per-user broker where root enrolled `alice-face` for alice and `bob-face` for bob and set their passcodes.
  func twoOwners(rightStore: RightStore? = nil) async -> (BrokerHarness, TestClient, TestClient) {
    let harness = BrokerHarness(enrolled: [], rightStore: rightStore, owners: .perUser)
    let root = await harness.connect()
    for (uid, identity, passcode) in [
      (Self.alice, "alice-face", "1111"), (Self.bob, "bob-face", "2222"),
    ] {
      let user = JSONValue.int(Int(uid))
      #expect(
        await root.call(
          Method.sensorsEnroll, ["sensor": "face", "identity": .string(identity), "user": user])?
          .object?["enrolled"] == [.string(identity)])
      #expect(
        await root.call(Method.sensorsSetPasscode, ["passcode": .string(passcode), "user": user])?
          .object?["uid"] == user)
    }
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob)
    return (harness, alice, bob)
  }

  @Test func anotherOwnersIdentityNeverMatches() async {
    let (harness, alice, bob) = await twoOwners()
    _ = harness.face.script(
      [.match(identity: "bob-face"), .match(identity: "bob-face"), .match(identity: "bob-face")],
      replace: true)
    #expect(await alice.evaluate()?.code == .authenticationFailed)
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    #expect(await bob.evaluate()?.object?["sensor"] == "face")
    _ = harness.face.script([.match(identity: nil)], replace: true)
    #expect(
      await alice.evaluate()?.object?["sensor"] == "face", "MATCH alone is the owner's own face")
  }

  @Test func anotherOwnersPasscodeNeverSatisfies() async {
    let (harness, alice, _) = await twoOwners()
    _ = harness.face.script([.fallback], replace: true)
    _ = harness.passcodeSensor.script([.passcode("2222"), .cancel], replace: true)
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    #expect(await alice.evaluate(.deviceOwnerAuthentication)?.code == .userCancel)
    let wrong = alice.recorder.notifications(Notification.feedback).filter {
      $0["feedback"] == "wrongPasscode"
    }
    #expect(wrong.count == 1)
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    _ = harness.passcodeSensor.script([.passcode("1111")], replace: true)
    #expect(await alice.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
  }

  @Test func oneOwnersFailuresNeverLockOutAnother() async {
    let (harness, alice, bob) = await twoOwners()
    // Face ID: two failed matches a prompt; the fifth in a row (third prompt) locks.
    _ = harness.face.script(Array(repeating: .noMatch, count: 5), replace: true)
    #expect(await alice.evaluate()?.code == .authenticationFailed)
    #expect(await alice.evaluate()?.code == .authenticationFailed)
    #expect(await alice.evaluate()?.code == .biometryLockout)
    let aliceCheck = await alice.call(Method.canEvaluatePolicy, ["policy": 1])?.object
    #expect(aliceCheck?["error"]?.objectValue?["name"] == "biometryLockout")
    #expect(await bob.call(Method.canEvaluatePolicy, ["policy": 1])?.object?["canEvaluate"] == true)
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    #expect(await bob.evaluate()?.object?["sensor"] == "face")
  }

  @Test func onlyAdminsActForAnotherUser() async {
    let (harness, alice, _) = await twoOwners()
    let params: JSONObject = [
      "policy": 1, "localizedReason": "sudo", "user": .int(Int(Self.bob)),
    ]
    #expect(await alice.call(Method.evaluatePolicy, params)?.code == .permissionDenied)
    #expect(
      await alice.call(Method.canEvaluatePolicy, ["policy": 1, "user": .int(Int(Self.bob))])?.code
        == .permissionDenied)
    #expect(
      await alice.call(
        Method.sensorsEnroll, ["sensor": "face", "identity": "x", "user": .int(Int(Self.alice))])?
        .code == .permissionDenied)
    // Naming yourself is allowed.
    #expect(
      await alice.call(Method.canEvaluatePolicy, ["policy": 1, "user": .int(Int(Self.alice))])?
        .object?["canEvaluate"] == true)
    // Root evaluates on behalf of bob (the PAM module in sudo): bob's face satisfies it, alice's does not.
    let root = await harness.connect()
    _ = harness.face.script([.match(identity: "bob-face")], replace: true)
    let tag = harness.nextTag()
    _ = await root.call(Method.evaluatePolicy, params, tag: tag)
    #expect(await root.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    _ = harness.face.script(
      Array(repeating: .match(identity: "alice-face"), count: 3), replace: true)
    let second = harness.nextTag()
    _ = await root.call(Method.evaluatePolicy, params, tag: second)
    #expect(await root.recorder.waitForResponse(tag: second)?.code == .authenticationFailed)
    #expect(
      await root.call(Method.canEvaluatePolicy, ["policy": 1, "user": "no-such-user-xyz"])?.code
        == .notFound)
    #expect(
      await root.call(Method.canEvaluatePolicy, ["policy": 1, "user": true])?.code == .invalidParams
    )
  }

  @Test func usersChangeTheirOwnPasscodeByProvingTheOldOne() async {
    let (harness, alice, bob) = await twoOwners()
    #expect(
      await alice.call(Method.sensorsSetPasscode, ["passcode": "5555"])?.code == .permissionDenied)
    #expect(
      await alice.call(Method.sensorsSetPasscode, ["passcode": "5555", "oldPasscode": "2222"])?.code
        == .authenticationFailed)
    #expect(
      await alice.call(Method.sensorsSetPasscode, ["passcode": "5555", "oldPasscode": "1111"])?
        .object?["uid"] == .int(Int(Self.alice)))
    #expect(
      await alice.call(
        Method.sensorsSetPasscode,
        ["passcode": "7777", "oldPasscode": "5555", "user": .int(Int(Self.bob))])?.code
        == .permissionDenied)
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    _ = harness.passcodeSensor.script([.passcode("5555")], replace: true)
    #expect(await alice.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
    // A user without a passcode sets a first one without proof.
    let fresh = await harness.connect(uid: 61_003, gid: 61_003)
    #expect(
      await fresh.call(Method.sensorsSetPasscode, ["passcode": "8888"])?.object?["uid"] == 61_003)
    _ = bob
  }

  @Test func stateSurvivesARestartAndNoPasscodeBytesAreStored() async throws {
    let directory = try TemporaryStateDirectory()
    do {
      let (harness, alice, _) = await twoOwners(rightStore: directory.store)
      #expect(
        await alice.call(
          Method.sensorsSetPasscode, ["passcode": "97531864", "oldPasscode": "1111"])?
          .object != nil)
      _ = harness.face.script(Array(repeating: .noMatch, count: 5), replace: true)
      #expect(await alice.evaluate()?.code == .authenticationFailed)
      #expect(await alice.evaluate()?.code == .authenticationFailed)
      #expect(await alice.evaluate()?.code == .biometryLockout)
      harness.broker.flushStateWrites()
    }
    for name in ["rights.sqlite3", "rights.sqlite3-wal"] {
      let bytes =
        (try? Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + name))) ?? Data()
      #expect(bytes.range(of: Data("97531864".utf8)) == nil, "passcode bytes in \(name)")
    }
    // A new broker on the same store: alice is still locked out, bob is not, alice's passcode still works.
    let harness = BrokerHarness(
      enrolled: [], passcode: nil, rightStore: directory.store, owners: .perUser)
    let root = await harness.connect()
    for (uid, identity) in [(Self.alice, "alice-face"), (Self.bob, "bob-face")] {
      _ = await root.call(
        Method.sensorsEnroll,
        ["sensor": "face", "identity": .string(identity), "user": .int(Int(uid))])
    }
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob)
    let check = await alice.call(Method.canEvaluatePolicy, ["policy": 1])?.object
    #expect(check?["error"]?.objectValue?["name"] == "biometryLockout")
    #expect(await bob.call(Method.canEvaluatePolicy, ["policy": 1])?.object?["canEvaluate"] == true)
    _ = harness.passcodeSensor.script([.passcode("97531864")], replace: true)
    #expect(await alice.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
    #expect(
      await alice.call(Method.canEvaluatePolicy, ["policy": 1])?.object?["canEvaluate"] == true)
  }

  @Test func passcodeBackOffSurvivesARestart() async throws {
    let directory = try TemporaryStateDirectory()
    var configuration = BrokerConfiguration()
    configuration.passcodeDelayFromFailure = 2
    do {
      let harness = BrokerHarness(
        configuration: configuration, enrolled: [], rightStore: directory.store, owners: .perUser)
      let root = await harness.connect()
      _ = await root.call(
        Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
      let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
      _ = harness.passcodeSensor.script(
        [.passcode("0000"), .passcode("0000"), .cancel], replace: true)
      let (tag, _) = await alice.startEvaluation(.deviceOwnerAuthentication)
      // The second wrong passcode starts a 60 s back-off; cancel while it waits.
      let delayed = await alice.recorder.wait(seconds: 60) { messages in
        messages.contains {
          if case .notification(Notification.feedback, let p) = $0 {
            return p["feedback"] == "passcodeDelay"
          }
          return false
        }
      }
      // Two scrypt checks of a wrong passcode come first: generous under a loaded parallel run.
      #expect(delayed, "no passcodeDelay feedback after two wrong passcodes")
      _ = await alice.call(Method.cancel, ["id": .int(tag)])
      harness.broker.flushStateWrites()
    }
    let harness = BrokerHarness(
      configuration: configuration, enrolled: [], passcode: nil, rightStore: directory.store,
      owners: .perUser)
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice)
    let listed = await alice.call(Method.sensorsList)?.object?["sensors"]?.arrayValue ?? []
    let passcode = listed.compactMap(\.objectValue).first { $0["name"] == "passcode" }
    #expect(passcode?["failedAttempts"] == 2)
    #expect(passcode?["lockedOut"] == true, "the back-off is still running after the restart")
  }

  @Test func domainStateIsKeyedWithTheDeviceKey() async throws {
    var hashes: [JSONValue?] = []
    for _ in 0..<2 {
      let directory = try TemporaryStateDirectory()
      let harness = BrokerHarness(enrolled: ["alice"], rightStore: directory.store)
      let client = await harness.connect()
      let first = await client.call(Method.domainState)?.object?["biometry"]?.objectValue?[
        "stateHash"]
      // The same store (same device key) and the same set give the same hash.
      let again = await client.call(Method.domainState)?.object?["biometry"]?.objectValue?[
        "stateHash"]
      #expect(first == again)
      #expect(first?.stringValue.flatMap(Base64.decode)?.count == 16)
      hashes.append(first)
    }
    #expect(
      hashes[0] != hashes[1], "two device keys, the same enrolled set: the hashes must differ")
  }

  @Test(arguments: [
    "", "a b", "evil\u{1b}[31m", "x\u{0}y", "ålice", "-lead", ".dot",
    String(repeating: "a", count: 65),
    "tab\there", "new\nline", "ａlice",
  ])
  func enrollmentRejectsIdentitiesThatAreNotSaneIdentifiers(_ identity: String) async {
    let harness = BrokerHarness(enrolled: [])
    let root = await harness.connect()
    #expect(
      await root.call(Method.sensorsEnroll, ["sensor": "face", "identity": .string(identity)])?.code
        == .invalidParams)
    #expect(harness.face.state().enrolled.isEmpty)
  }

  @Test(arguments: ["alice", "alice.smith@example.org", "A-1_b", String(repeating: "z", count: 64)])
  func enrollmentAcceptsSaneIdentifiers(_ identity: String) async {
    let harness = BrokerHarness(enrolled: [])
    let root = await harness.connect()
    #expect(
      await root.call(Method.sensorsEnroll, ["sensor": "face", "identity": .string(identity)])?
        .object?["enrolled"] == [.string(identity)])
  }

  @Test func oneUidCannotQueueUpPasscodeHashing() async {
    let (harness, alice, _) = await twoOwners()
    // Hold the hashing thread, so the first change is certainly still in progress.
    let gate = DispatchSemaphore(value: 0)
    harness.broker.services.hasher.thread.run { gate.wait() }
    let first = harness.nextTag()
    let request = RPCRequest(
      method: Method.sensorsSetPasscode, params: ["passcode": "4444", "oldPasscode": "1111"],
      id: .int(first))
    let immediate = await harness.broker.handle(
      request, from: alice.session, responder: alice.recorder.responder(tag: first))
    #expect(immediate == nil)
    let second = await alice.call(
      Method.sensorsSetPasscode, ["passcode": "5555", "oldPasscode": "1111"])
    #expect(second?.code == .limitExceeded)
    if case .failure(let error) = second { #expect(error.data["limit"] == "PasscodeChangesPerUID") }
    gate.signal()
    #expect(
      await alice.recorder.waitForResponse(tag: first)?.object?["uid"] == .int(Int(Self.alice)))
    #expect(
      await alice.call(Method.sensorsSetPasscode, ["passcode": "5555", "oldPasscode": "4444"])?
        .object?["uid"] == .int(Int(Self.alice)))
  }

  @Test func theOwnerFollowsAnEvaluationOnTheirBehalf() async {
    let (harness, alice, bob) = await twoOwners()
    _ = await alice.call(Method.brokerMonitor)
    _ = await bob.call(Method.brokerMonitor)
    let root = await harness.connect()
    _ = harness.face.script([.match(identity: "alice-face")], replace: true)
    let tag = harness.nextTag()
    _ = await root.call(
      Method.evaluatePolicy,
      ["policy": 1, "localizedReason": "sudo", "user": .int(Int(Self.alice))], tag: tag)
    #expect(await root.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    _ = await alice.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.monitorEvent, let p) = $0 {
          return p["event"] == "finished"
        }
        return false
      }
    }
    let events = alice.recorder.notifications(Notification.monitorEvent)
    #expect(events.first?["ownerUID"] == .int(Int(Self.alice)))
    #expect(events.first?["clientUID"] == 0)
    #expect(bob.recorder.notifications(Notification.monitorEvent).isEmpty)
  }
}
