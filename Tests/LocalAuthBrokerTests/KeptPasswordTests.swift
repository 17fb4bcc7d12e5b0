import LocalAuthConcurrency
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// The notices the broker logs, kept for a test to read. Thread-safe.
final class NoticeRecorder: EvaluationLog {
  private let lines = StateLock<[String]>([])
  /// Every notice so far.
  var notices: [String] { lines.withLock { $0 } }
  func evaluationStarted(_ record: EvaluationRecord, file: String, line: Int, function: String) {}
  func evaluationFinished(
    _ record: EvaluationRecord, result: EvaluationResult, file: String, line: Int, function: String
  ) {}
  func clientDropped(
    pid: Int32, uid: UInt32, name: String, requestID: String?, reason: String, file: String,
    line: Int, function: String
  ) {}
  func notice(_ message: String, file: String, line: Int, function: String) {
    lines.withLock { $0.append(message) }
  }
}

/// A login password kept for a login by presence (issue 33): root's module keeps the password
/// pam_unix accepted, and gets it back once, within 30 s, after a system evaluation it asked for the
/// same user succeeded by face, for a login manager's service. Hostile: everyone else tries.
@Suite struct KeptPasswordTests {
  static let alice: UInt32 = 63_301
  static let bob: UInt32 = 63_302
  static let password = "alice's login password, 33 bytes"

  struct Setup {
    let harness: BrokerHarness
    let root: TestClient
    let checker: FakePasswordChecker
    let log: NoticeRecorder
  }

  /// A per-user broker keeping passwords; alice and bob have faces enrolled; alice's password is
  /// `password`.
  func setUp(_ configure: (inout BrokerConfiguration) -> Void = { _ in }) async -> Setup {
    var configuration = BrokerConfiguration()
    configure(&configuration)
    let log = NoticeRecorder()
    let harness = BrokerHarness(
      configuration: configuration, enrolled: [], passcode: nil, owners: .perUser, log: log)
    let checker = FakePasswordChecker([Self.alice: Self.password, Self.bob: "bob's password"])
    await harness.broker.setKeptPasswordServices(
      KeptPasswordServices(checker: checker, sealer: BootSealer()!))
    let root = await harness.connect(pid: 1)
    for (uid, identity) in [(Self.alice, "alice-face"), (Self.bob, "bob-face")] {
      _ = await root.call(
        Method.sensorsEnroll,
        ["sensor": "face", "identity": .string(identity), "user": .int(Int(uid))])
    }
    return Setup(harness: harness, root: root, checker: checker, log: log)
  }

  func keep(_ client: TestClient, _ uid: UInt32, _ password: String) async -> Result<
    JSONValue, RPCError
  >? {
    await client.call(
      KeepPasswordRequest.method, ["uid": .int(Int(uid)), "password": .string(password)])
  }

  func release(_ client: TestClient, _ requestID: String?, service: String = "login") async
    -> Result<JSONValue, RPCError>?
  {
    await client.call(
      ReleasePasswordRequest.method,
      ["requestID": .string(requestID ?? "none"), "service": .string(service)])
  }

  /// `client`'s system evaluation for `uid` (requester `requester`), the face answering with
  /// `script`; its requestID and whether it succeeded.
  func login(
    _ client: TestClient, _ uid: UInt32, requester: UInt32 = 0,
    script: [ScriptCommand] = [.match(identity: "alice-face")]
  ) async -> (requestID: String?, succeeded: Bool) {
    _ = client.harness.face.script(script, replace: true)
    let tag = client.harness.nextTag()
    let immediate = await client.call(
      Method.evaluatePolicy,
      [
        "policy": 1, "localizedReason": "login", "user": .int(Int(uid)),
        "requester": .int(Int(requester)),
      ], tag: tag)
    var result = immediate
    if result == nil { result = await client.recorder.waitForResponse(tag: tag) }
    switch result {
    case .success(let value)?: return (value.objectValue?["requestID"]?.stringValue, true)
    case .failure(let error)?: return (error.data["requestID"]?.stringValue, false)
    case nil: return (nil, false)
    }
  }

  func reason(_ result: Result<JSONValue, RPCError>?) -> String? {
    guard case .failure(let error)? = result else { return nil }
    return error.data["reason"]?.stringValue
  }

  @Test func aLoginByFaceGetsTheKeptPasswordOnceForAListedService() async {
    let setup = await setUp()
    #expect(await keep(setup.root, Self.alice, Self.password)?.object?["kept"] == true)
    #expect(setup.checker.checks.map(\.uid) == [Self.alice], "checked by the helper before kept")
    let login = await login(setup.root, Self.alice)
    #expect(login.succeeded)
    let released = await release(setup.root, login.requestID)
    #expect(released?.object?["password"] == .string(Self.password))
    // Once: the proof is spent.
    #expect(reason(await release(setup.root, login.requestID)) == "noPresence")
    // Kept still: the next login by face gets it again.
    let next = await self.login(setup.root, Self.alice)
    #expect(await release(setup.root, next.requestID, service: "lightdm")?.object != nil)
    let notices = setup.log.notices
    #expect(notices.contains { $0.contains("kept for this boot") })
    #expect(
      notices.contains {
        $0.contains("released to login after evaluation \(login.requestID ?? "?")")
      })
    #expect(!notices.contains { $0.contains(Self.password) }, "the password is in no log line")
  }

  @Test func nobodyButRootMayUseTheLoginMethods() async {
    let setup = await setUp()
    _ = await keep(setup.root, Self.alice, Self.password)
    let alice = await setup.harness.connect(uid: Self.alice, gid: Self.alice, pid: 700)
    let bob = await setup.harness.connect(uid: Self.bob, gid: Self.bob, pid: 701)
    // An admin who is not root is refused too.
    let admin = await setup.harness.connect(uid: 1000, gid: 0, pid: 702)
    for client in [alice, bob, admin] {
      #expect(reason(await keep(client, client.session.peer.uid, "x")) == "notRoot")
      #expect(reason(await release(client, "any")) == "notRoot")
      #expect(
        reason(
          await client.call(
            DropPasswordRequest.method, ["uid": .int(Int(Self.alice)), "reason": "admin"]))
          == "notRoot")
    }
    // alice's own app evaluation by face succeeds, and does not release her password.
    _ = setup.harness.face.script([.match(identity: "alice-face")], replace: true)
    _ = await alice.call(Method.sensorsSetPasscode, ["passcode": "0000"])
    let app = await alice.evaluate()
    #expect(app?.object?["sensor"] == "face")
    #expect(reason(await release(alice, app?.object?["requestID"]?.stringValue)) == "notRoot")
  }

  @Test func noPresenceNoPassword() async {
    let setup = await setUp()
    _ = await keep(setup.root, Self.alice, Self.password)
    // No evaluation at all.
    #expect(reason(await release(setup.root, "made-up")) == "noPresence")
    // The person typed the password in the module's prompt instead: the module cancels the
    // evaluation (pam_unix then judges the password).
    _ = setup.harness.face.script([], replace: true)
    let tag = setup.harness.nextTag()
    _ = await setup.root.call(
      Method.evaluatePolicy,
      ["policy": 1, "localizedReason": "login", "user": .int(Int(Self.alice)), "requester": 0],
      tag: tag)
    let typed = await setup.root.requestID()
    _ = await setup.root.call(Method.cancel, ["id": .int(tag)])
    #expect(await setup.root.recorder.waitForResponse(tag: tag)?.code == .appCancel)
    #expect(reason(await release(setup.root, typed)) == "noPresence")
    // Bob's face does not answer for alice.
    let wrongFace = await login(
      setup.root, Self.alice, script: Array(repeating: .match(identity: "bob-face"), count: 3))
    #expect(!wrongFace.succeeded)
    #expect(reason(await release(setup.root, wrongFace.requestID)) == "noPresence")
    // Another connection's success is not this one's.
    let other = await setup.harness.connect(pid: 2)
    let login = await login(other, Self.alice)
    #expect(login.succeeded)
    #expect(reason(await release(setup.root, login.requestID)) == "noPresence")
    // A later failed evaluation on the connection forgets the success before it.
    let success = await self.login(setup.root, Self.alice)
    _ = await self.login(setup.root, Self.alice, script: [.cancel])
    #expect(reason(await release(setup.root, success.requestID)) == "noPresence")
  }

  @Test func sudoByFaceReleasesNothing() async {
    let setup = await setUp()
    _ = await keep(setup.root, Self.alice, Self.password)
    for service in ["sudo", "su", "polkit-1", "sshd", "cron"] {
      let sudo = await login(setup.root, Self.alice)
      #expect(sudo.succeeded)
      #expect(
        reason(await release(setup.root, sudo.requestID, service: service)) == "serviceNotListed")
    }
    // Listing sudo in ReleasePasswordTo= does not make it one.
    let listed = await setUp { $0.login.releaseTo.insert("sudo") }
    _ = await keep(listed.root, Self.alice, Self.password)
    let sudo = await login(listed.root, Self.alice)
    #expect(
      reason(await release(listed.root, sudo.requestID, service: "sudo")) == "serviceNotListed")
    // sudo runs the module with alice's real uid as the requester: even for "login" it is no login.
    let asAlice = await login(setup.root, Self.alice, requester: Self.alice)
    #expect(asAlice.succeeded)
    #expect(reason(await release(setup.root, asAlice.requestID)) == "noPresence")
  }

  @Test func theReleaseWindowIsThirtySeconds() async {
    let setup = await setUp()
    _ = await keep(setup.root, Self.alice, Self.password)
    let early = await login(setup.root, Self.alice)
    setup.harness.clock.advance(by: .seconds(30))
    #expect(await release(setup.root, early.requestID)?.object != nil, "30 s: still in time")
    let late = await login(setup.root, Self.alice)
    setup.harness.clock.advance(by: .seconds(31))
    #expect(reason(await release(setup.root, late.requestID)) == "noPresence")
  }

  @Test func aDroppedOrExpiredPasswordIsNotReleased() async {
    let setup = await setUp { $0.login.maxAge = .seconds(3600) }
    _ = await keep(setup.root, Self.alice, Self.password)
    _ = await keep(setup.root, Self.bob, "bob's password")
    #expect(await setup.root.call(BrokerStatusRequest.method)?.object?["keptPasswords"] == 2)
    let dropped = await setup.root.call(
      DropPasswordRequest.method, ["uid": .int(Int(Self.alice)), "reason": "passwordChanged"])
    #expect(dropped?.object?["dropped"] == true)
    let login = await login(setup.root, Self.alice)
    #expect(reason(await release(setup.root, login.requestID)) == "notKept")
    #expect(
      setup.log.notices.contains { $0.contains("uid \(Self.alice) dropped (passwordChanged)") })
    // bob's expires.
    setup.harness.clock.advance(by: .seconds(3600))
    let bob = await self.login(setup.root, Self.bob, script: [.match(identity: "bob-face")])
    #expect(bob.succeeded)
    #expect(reason(await release(setup.root, bob.requestID)) == "notKept")
    #expect(setup.log.notices.contains { $0.contains("uid \(Self.bob) dropped (maxAge)") })
    #expect(await setup.root.call(BrokerStatusRequest.method)?.object?["keptPasswords"] == 0)
    // Others see no count.
    let alice = await setup.harness.connect(uid: Self.alice, gid: Self.alice, pid: 700)
    #expect(await alice.call(BrokerStatusRequest.method)?.object?["keptPasswords"] == nil)
  }

  @Test func theLastSessionsEndDropsThePasswordOnlyWhenConfigured() async {
    let kept = await setUp()
    _ = await keep(kept.root, Self.alice, Self.password)
    #expect(await kept.harness.broker.lastSessionEnded(of: Self.alice) == false)
    #expect(await kept.root.call(BrokerStatusRequest.method)?.object?["keptPasswords"] == 1)
    let dropping = await setUp { $0.login.dropAtLastLogout = true }
    _ = await keep(dropping.root, Self.alice, Self.password)
    _ = await keep(dropping.root, Self.bob, "bob's password")
    #expect(await dropping.harness.broker.lastSessionEnded(of: Self.alice))
    let login = await login(dropping.root, Self.alice)
    #expect(reason(await release(dropping.root, login.requestID)) == "notKept")
    #expect(await dropping.root.call(BrokerStatusRequest.method)?.object?["keptPasswords"] == 1)
    #expect(
      dropping.log.notices.contains { $0.contains("uid \(Self.alice) dropped (lastSessionEnded)") })
    // A client cannot give the daemon's own reason.
    let refused = await dropping.root.call(
      DropPasswordRequest.method, ["uid": .int(Int(Self.bob)), "reason": "lastSessionEnded"])
    guard case .failure(let error)? = refused else {
      Issue.record("lastSessionEnded was taken from a client")
      return
    }
    #expect(error.code == .invalidParams)
  }

  @Test func aWrongPasswordIsNeverKept() async {
    let setup = await setUp()
    #expect(await keep(setup.root, Self.alice, "not alice's")?.object?["kept"] == false)
    // bob's password is not alice's either.
    #expect(await keep(setup.root, Self.alice, "bob's password")?.object?["kept"] == false)
    let login = await login(setup.root, Self.alice)
    #expect(reason(await release(setup.root, login.requestID)) == "notKept")
    #expect(
      setup.log.notices.contains { $0.contains("not kept: it is not the account's password") })
    // A helper that cannot be asked keeps nothing either.
    setup.checker.setReachable(false)
    #expect(
      reason(await keep(setup.root, Self.alice, Self.password)) == "passwordHelperUnavailable")
    // Nor a daemon without the services, nor KeepPasswords=no.
    let off = await setUp { $0.login.keepPasswords = false }
    #expect(reason(await keep(off.root, Self.alice, Self.password)) == "keepingOff")
  }

  @Test func theLimitsHold() async {
    let setup = await setUp()
    for bad: JSONValue in [
      .string(""), .string(String(repeating: "x", count: 513)), .string("a\u{0}b"), .int(1),
    ] {
      let result = await setup.root.call(
        KeepPasswordRequest.method, ["uid": .int(Int(Self.alice)), "password": bad])
      #expect(result?.code == .invalidParams)
    }
    for uid: JSONValue in [.int(-1), .int(Int(UInt32.max)), .string("alice")] {
      let result = await setup.root.call(
        KeepPasswordRequest.method, ["uid": uid, "password": "x"])
      #expect(result?.code == .invalidParams)
    }
    // One password per uid: a second keep replaces the first.
    setup.checker.setPassword("new password", uid: Self.alice)
    _ = await keep(setup.root, Self.alice, Self.password)
    _ = await keep(setup.root, Self.alice, "new password")
    let login = await login(setup.root, Self.alice)
    #expect(await release(setup.root, login.requestID)?.object?["password"] == "new password")
    // A bounded number of uids.
    var kept = KeptPasswords()
    let sealer = BootSealer()!
    for uid in 0..<UInt32(KeptPasswords.maxEntries) {
      #expect(kept.hasRoom(for: uid))
      kept.keep(
        sealer.seal(UnsafeBufferPointer(start: nil, count: 0), authenticating: [])!, uid: uid,
        at: .zero)
    }
    #expect(!kept.hasRoom(for: UInt32(KeptPasswords.maxEntries)))
    #expect(kept.hasRoom(for: 0), "a kept uid is replaced")
  }

  @Test func aSealedPasswordOpensOnlyForItsUID() {
    let sealer = BootSealer()!
    let bytes = Array(Self.password.utf8)
    let sealed = bytes.withUnsafeBufferPointer {
      sealer.seal($0, authenticating: KeptPasswords.binding(Self.alice))
    }!
    #expect(!Array(sealed.bytes).contains(bytes[0..<8]), "sealed, not in the clear")
    #expect(sealer.open(sealed, authenticating: KeptPasswords.binding(Self.bob)) == nil)
    #expect(BootSealer()!.open(sealed, authenticating: KeptPasswords.binding(Self.alice)) == nil)
    let opened = sealer.open(sealed, authenticating: KeptPasswords.binding(Self.alice))
    #expect(opened.map { Array($0.bytes) } == bytes)
  }
}
