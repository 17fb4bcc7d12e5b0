import LocalAuthBroker
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// Issue 34: reuse windows end when the session locks, the machine suspends or the user logs out
/// (`Broker.closeGrants(of:because:)`, which the daemon calls on logind's signals): app contexts'
/// unless `CloseGrantsOnLock=no`, SSH keys' unless the key keeps its window on lock; only the
/// named uid's.
@Suite struct SessionLockTests {
  private func create(_ client: TestClient, _ name: String, keepOnLock: Bool = false) async {
    let result = await client.call(
      Method.sshKeyCreate,
      ["name": .string(name), "reuseSeconds": 600, "keepOnLock": .bool(keepOnLock)])
    #expect(result?.object?["keepOnLock"] == .bool(keepOnLock), "\(String(describing: result))")
  }

  private func sign(_ client: TestClient, _ name: String) async -> ErrorCode? {
    await client.call(Method.sshKeySign, ["name": .string(name), "data": "AQID"])?.code
  }

  /// Signs once with a match, then checks the window answers without a capture.
  private func openWindow(_ harness: BrokerHarness, _ client: TestClient, _ name: String) async {
    _ = harness.face.script([.match(identity: nil)], replace: true)
    #expect(await sign(client, name) == nil)
    // Nothing scripted but a cancel: a signature within the window never reaches it.
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(client, name) == nil, "the window is open")
  }

  @Test func aLockClosesTheUsersSSHWindowsOnly() async throws {
    let (harness, directory) = try rightsHarness()
    let alice = await harness.connect(uid: 1000, gid: 1000)
    let bob = await harness.connect(uid: 1001, gid: 1001, pid: 4343)
    await create(alice, "git")
    await create(bob, "git")
    await openWindow(harness, alice, "git")
    await openWindow(harness, bob, "git")
    #expect(await harness.broker.closeGrants(of: 1000, because: .lock) == 1)
    // Alice's next signature captures (the cancel); Bob's window is still open.
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(bob, "git") == nil)
    #expect(await sign(alice, "git") == .userCancel)
    _ = directory
  }

  @Test func aKeyThatKeepsItsWindowOnLockStaysOpenButSleepClosesTheRest() async throws {
    let (harness, directory) = try rightsHarness()
    let alice = await harness.connect(uid: 1000, gid: 1000)
    await create(alice, "kept", keepOnLock: true)
    await create(alice, "closed")
    await openWindow(harness, alice, "kept")
    await openWindow(harness, alice, "closed")
    // A suspend closes every uid's windows, but a key made with keepOnLock.
    #expect(await harness.broker.closeGrants(of: nil, because: .sleep) == 1)
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(alice, "kept") == nil)
    #expect(await sign(alice, "closed") == .userCancel)
    let keys = await alice.call(Method.sshKeyList)?.object?["keys"]?.arrayValue ?? []
    #expect(keys.map { $0.objectValue?["keepOnLock"] } == [.bool(false), .bool(true)])
    _ = directory
  }

  @Test func aLockClosesAnAppContextsReuseWindow() async {
    let harness = BrokerHarness()
    let alice = await harness.connect(uid: 1000, gid: 1000)
    let bob = await harness.connect(uid: 1001, gid: 1001, pid: 4343)
    var contexts: [String] = []
    for client in [alice, bob] {
      let context = await client.createContext(["reuseDuration": 60])
      _ = harness.face.script([.match(identity: nil)], replace: true)
      #expect(await client.evaluate(context: context)?.object?["reused"] == false)
      contexts.append(context)
    }
    await harness.broker.closeGrants(of: 1000, because: .logout)
    let bobs = await bob.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: contexts[1])
    #expect(bobs.immediate?.object?["reused"] == true, "another uid's window stays open")
    let alices = await alice.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: contexts[0])
    #expect(alices.immediate == nil, "answered without a capture: \(String(describing: alices))")
    _ = harness.face.script([.cancel], replace: true)
    #expect(await alice.recorder.waitForResponse(tag: alices.tag)?.code == .userCancel)
  }

  @Test func closeGrantsOnLockNoLeavesAppContextsOpen() async {
    var configuration = BrokerConfiguration()
    configuration.closeGrantsOnLock = false
    let harness = BrokerHarness(configuration: configuration)
    let alice = await harness.connect(uid: 1000, gid: 1000)
    let context = await alice.createContext(["reuseDuration": 60])
    _ = harness.face.script([.match(identity: nil)], replace: true)
    #expect(await alice.evaluate(context: context)?.object?["reused"] == false)
    #expect(await harness.broker.closeGrants(of: 1000, because: .lock) == 0)
    let again = await alice.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, context: context)
    #expect(again.immediate?.object?["reused"] == true)
  }
}
