import LocalAuthBroker
import LocalAuthProtocol
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
    #expect(await hash() == first)
  }
}
