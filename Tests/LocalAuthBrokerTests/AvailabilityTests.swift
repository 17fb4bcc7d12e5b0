import LocalAuthBroker
import LocalAuthProtocol
import RightStore
import RightsStorage
import Sensors
import Testing

/// canEvaluatePolicy answers every row of docs/protocol.md, "Errors", that applies without a
/// prompt.
@Suite struct AvailabilityTests {
  func canEvaluate(_ harness: BrokerHarness, _ policy: Policy) async -> (Bool, String?) {
    let client = await harness.connect()
    let result = await client.call(Method.canEvaluatePolicy, ["policy": policy.json])?.object
    let can = result?["canEvaluate"]?.boolValue ?? false
    return (can, result?["error"]?.objectValue?["name"]?.stringValue)
  }

  @Test func biometryAvailableWhenEnrolledWithPasscode() async {
    let (can, error) = await canEvaluate(BrokerHarness(), .deviceOwnerAuthenticationWithBiometrics)
    #expect(can && error == nil)
  }

  @Test func noPasscodeMeansPasscodeNotSet() async {
    let harness = BrokerHarness(passcode: nil)
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "passcodeNotSet"
      ))
    #expect(await canEvaluate(harness, .deviceOwnerAuthentication) == (false, "passcodeNotSet"))
  }

  @Test func nothingEnrolledMeansNotEnrolled() async {
    let harness = BrokerHarness(enrolled: [])
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryNotEnrolled"
      ))
    #expect(await canEvaluate(harness, .deviceOwnerAuthentication) == (true, nil))
  }

  @Test func noBiometricHardwareMeansNotAvailable() async {
    let harness = BrokerHarness(faceAvailable: false)
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryNotAvailable"
      ))
    let client = await harness.connect()
    let result = await client.call(Method.canEvaluatePolicy, ["policy": 1])?.object
    #expect(result?["biometryType"] == "none")
  }

  @Test func removableAccessoryNotPaired() async {
    let harness = BrokerHarness(removable: true, faceAvailable: false)
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryNotPaired"
      ))
  }

  @Test func removableDisconnectedSensor() async {
    let harness = BrokerHarness(removable: true)
    _ = harness.face.script([.disconnect], replace: false)
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryDisconnected"
      ))
  }

  @Test func companionPolicies() async {
    let unpaired = BrokerHarness()
    #expect(
      await canEvaluate(unpaired, .deviceOwnerAuthenticationWithCompanion) == (
        false, "companionNotAvailable"
      ))
    #expect(
      await canEvaluate(unpaired, .deviceOwnerAuthenticationWithWristDetection) == (
        false, "companionNotAvailable"
      ))
    let paired = BrokerHarness(enrolled: [], companionPaired: ["watch-1"])
    #expect(await canEvaluate(paired, .deviceOwnerAuthenticationWithCompanion) == (true, nil))
    #expect(
      await canEvaluate(paired, .deviceOwnerAuthenticationWithBiometricsOrCompanion) == (true, nil))
  }

  @Test func lockoutIsReportedButPasscodeStillWorks() async {
    var configuration = BrokerConfiguration()
    configuration.lockoutThreshold = 2
    let harness = BrokerHarness(configuration: configuration)
    let client = await harness.connect()
    _ = harness.face.script([.noMatch, .noMatch], replace: false)
    #expect(await client.evaluate()?.code == .biometryLockout)
    #expect(
      await canEvaluate(harness, .deviceOwnerAuthenticationWithBiometrics) == (
        false, "biometryLockout"
      ))
    #expect(await canEvaluate(harness, .deviceOwnerAuthentication) == (true, nil))
  }

  @Test func canEvaluateNeverPrompts() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    for policy in Policy.allCases {
      _ = await client.call(Method.canEvaluatePolicy, ["policy": policy.json])
    }
    #expect(client.recorder.received.isEmpty)
    #expect(await harness.broker.isEvaluating == false)
  }

  @Test func invalidatedContextCannotEvaluate() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext()
    _ = await client.call(Method.invalidate, ["context": .string(context)])
    let result = await client.call(
      Method.canEvaluatePolicy, ["policy": 1, "context": .string(context)])?.object
    #expect(result?["error"]?.objectValue?["code"] == -10)
  }

  @Test func domainStateFollowsEnrollment() async {
    let harness = BrokerHarness(enrolled: [])
    let client = await harness.connect()
    func hash() async -> JSONValue? {
      await client.call(Method.domainState)?.object?["biometry"]?.objectValue?["stateHash"]
    }
    #expect(await hash() == .null)
    _ = await client.call(Method.sensorsEnroll, ["sensor": "face", "identity": "alice"])
    let first = await hash()
    #expect(first != .null && first != nil)
    _ = await client.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])
    let second = await hash()
    #expect(second != first)
    _ = await client.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "bob"])
    // Apple: after an enrolment is added and then removed, "the final state would be different".
    let third = await hash()
    #expect(third != first && third != second && third != .null)
    // The value is base64 of 16 bytes, as the client decodes it.
    #expect(third?.stringValue.flatMap(Base64.decode)?.count == 16)
  }

  @Test func domainStateNeverReturnsToAnOldValueWhenTheBrokerStartsAgain() async throws {
    let directory = try TemporaryStateDirectory()
    func hash(_ harness: BrokerHarness) async -> JSONValue? {
      await harness.connect().call(Method.domainState)?.object?["biometry"]?.objectValue?[
        "stateHash"]
    }
    let first: JSONValue?
    let removed: JSONValue?
    do {
      let harness = BrokerHarness(enrolled: ["alice"], rightStore: directory.store)
      first = await hash(harness)
      _ = harness.face.enroll("bob")
      #expect(await hash(harness) != first)
      _ = harness.face.unenroll("bob")
      removed = await hash(harness)
      #expect(removed != first)
      harness.broker.flushStateWrites()
    }
    // A new broker on the same store, with the enrolled set of the first look.
    let harness = BrokerHarness(enrolled: ["alice"], rightStore: directory.store)
    let again = await hash(harness)
    #expect(again != first, "an old domain state came back")
    #expect(again == removed)
    #expect(try directory.store.enrolmentGenerations().map(\.generation) == [2])
  }

  @Test func domainStateDiffersFromAppToApp() async {
    let harness = BrokerHarness(enrolled: ["alice"])
    func hash(_ appID: String) async -> JSONValue? {
      let client = await harness.connect()
      _ = await client.call(
        Method.hello, ["client": ["name": "app", "appID": .string(appID)], "protocol": 1])
      return await client.call(Method.domainState)?.object?["biometry"]?.objectValue?["stateHash"]
    }
    let mail = await hash("org.example.mail")
    #expect(mail != .null && mail != nil)
    #expect(await hash("org.example.mail") == mail, "the same app sees the same value")
    #expect(await hash("org.example.tracker") != mail, "another app sees another value")
  }
}
