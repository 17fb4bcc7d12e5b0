import LocalAuthBroker
import LocalAuthProtocol
import Testing

/// sensors.* are for root and the admin group, decided by the peer's credentials; status is for all.
@Suite struct AdministrationTests {
  @Test func nonAdminsGetPermissionDenied() async {
    let harness = BrokerHarness()
    let user = await harness.connect(uid: 1000, gid: 1000)
    let calls: [(String, JSONObject)] = [
      (Method.sensorsScript, ["sensor": "face", "commands": ["MATCH"]]),
      (Method.sensorsEnroll, ["sensor": "face", "identity": "mallory"]),
      (Method.sensorsUnenroll, ["sensor": "face", "identity": "alice"]),
      (Method.sensorsSetPasscode, ["passcode": "0000"]),
      (Method.sensorsResetLockout, [:]),
    ]
    for (method, params) in calls {
      #expect(await user.call(method, params)?.code == .permissionDenied, "\(method)")
    }
    #expect(harness.face.state().enrolled.map(\.identity) == ["alice"])
  }

  @Test func adminGroupMembersMayAdminister() async {
    var configuration = BrokerConfiguration()
    configuration.adminGroupID = 977
    let harness = BrokerHarness(configuration: configuration)
    let member = await harness.connect(uid: 1000, gid: 1000, groups: [977])
    #expect(
      await member.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])?.object?[
        "enrolled"] == ["alice", "bob"])
  }

  @Test func listShowsIdentitiesOnlyToAdmins() async {
    let harness = BrokerHarness()
    let user = await harness.connect(uid: 1000, gid: 1000)
    let root = await harness.connect()
    let userFace = await user.call(Method.sensorsList)?.object?["sensors"]?.arrayValue?.first?
      .objectValue
    let rootFace = await root.call(Method.sensorsList)?.object?["sensors"]?.arrayValue?.first?
      .objectValue
    #expect(userFace?["enrolled"] == nil)
    #expect(userFace?["enrolledCount"] == 1)
    #expect(rootFace?["enrolled"] == ["alice"])
    #expect(rootFace?["kind"] == "faceID")
  }

  @Test func listShowsTheDefaultAndTheQueuedScriptPasscodesMasked() async {
    let harness = BrokerHarness()
    let user = await harness.connect(uid: 1000, gid: 1000)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsScript, ["sensor": "passcode", "commands": ["SLEEP 5", "PASSCODE 1234"]])
    func passcodeSensor(_ client: TestClient) async -> JSONObject? {
      await client.call(Method.sensorsList)?.object?["sensors"]?.arrayValue?
        .compactMap(\.objectValue).first { $0["name"] == "passcode" }
    }
    let seenByRoot = await passcodeSensor(root)
    #expect(seenByRoot?["queuedScript"] == ["SLEEP 5", "PASSCODE ****"])
    #expect(seenByRoot?["queuedCommands"] == 2)
    #expect(seenByRoot?["defaultMode"] != nil)
    let seenByUser = await passcodeSensor(user)
    #expect(seenByUser?["queuedScript"] == nil, "only those who may script see the script")
    #expect(seenByUser?["queuedCommands"] == 2)
  }

  @Test func badScriptIsRejectedWholeNamingTheLine() async {
    let harness = BrokerHarness()
    let root = await harness.connect()
    let result = await root.call(
      Method.sensorsScript, ["sensor": "face", "commands": ["MATCH", "WIBBLE"]])
    guard case .failure(let error)? = result else {
      Issue.record("accepted a bad script")
      return
    }
    #expect(error.code == .invalidParams)
    #expect(error.data["line"] == 2)
    #expect(harness.face.queuedCommands == 0)
    let unknown = await root.call(Method.sensorsScript, ["sensor": "fac", "commands": ["MATCH"]])
    #expect(unknown?.code == .notFound)
    // The error lists the sensors there are, so a typo is easy to fix.
    if case .failure(let error)? = unknown {
      #expect(error.message.hasPrefix("No such sensor: fac. Sensors: face, "))
    }
  }

  @Test func passcodeRulesAndClearing() async {
    let harness = BrokerHarness()
    let root = await harness.connect()
    #expect(await root.call(Method.sensorsSetPasscode, ["passcode": "12"])?.code == .invalidParams)
    #expect(
      await root.call(Method.sensorsSetPasscode, ["passcode": "12ab"])?.code == .invalidParams)
    #expect(await root.call(Method.sensorsSetPasscode, [:])?.code == .invalidParams)
    #expect(await root.call(Method.sensorsSetPasscode, ["passcode": .null])?.object?["uid"] == 0)
    let check = await root.call(Method.canEvaluatePolicy, ["policy": 2])?.object
    #expect(check?["error"]?.objectValue?["name"] == "passcodeNotSet")
  }

  @Test func statusCountsOutcomes() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    _ = harness.face.script([.cancel], replace: false)
    _ = await client.evaluate()
    _ = await client.call(Method.evaluatePolicy, ["policy": 3, "localizedReason": "x"])
    let status = await client.call(Method.brokerStatus)?.object
    #expect(status?["clients"] == 1)
    #expect(status?["outcomes"]?.objectValue?["userCancel"] == 1)
    #expect(status?["outcomes"]?.objectValue?["companionNotAvailable"] == 1)
  }

  @Test func monitorSeesOwnUidOnlyUnlessAdmin() async {
    let harness = BrokerHarness(faceDefault: .match)
    let watcher = await harness.connect(uid: 1000, gid: 1000)
    let admin = await harness.connect()
    _ = await watcher.call(Method.brokerMonitor)
    _ = await admin.call(Method.brokerMonitor)
    let other = await harness.connect(uid: 1001, gid: 1001)
    _ = await other.evaluate()
    #expect(await admin.recorder.wait { $0.count >= 2 })
    #expect(watcher.recorder.notifications(Notification.monitorEvent).isEmpty)
    let events = admin.recorder.notifications(Notification.monitorEvent).map {
      $0["event"]?.stringValue ?? ""
    }
    #expect(events.contains("started") && events.contains("finished"))
  }

  @Test func unknownMethodAndHello() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    #expect(await client.call("context.frobnicate")?.code == .methodNotFound)
    let hello = await client.call(Method.hello, ["client": ["name": "app"], "protocol": 1])?.object
    #expect(hello?["server"] == "localauthd")
    #expect(hello?["biometryType"] == "faceID")
    #expect(
      await client.call(Method.hello, ["client": ["name": "app"], "protocol": 2])?.code
        == .invalidParams)
    #expect(await client.call(Method.hello, ["client": "app"])?.code == .invalidParams)
  }
}
