import LocalAuthProtocol
import Sensors
import Testing

/// biometryCurrentSet rights, plain and persisted, stop working when the enrolled set changes.
@Suite struct RightsEnrollmentTests {
  @Test func enrollmentChangeInvalidatesAnAuthorizedCurrentSetRight() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let current = await client.createRight("biometryCurrentSet")
    let any = await client.createRight("biometry")
    await client.authorize(current)
    await client.authorize(any)
    _ = harness.face.enroll("bob")
    #expect(await client.state(current) == "notAuthorized")
    #expect(client.stateChanges(current).last == "notAuthorized")
    #expect(await client.state(any) == "authorized")
    let check = await client.call(Method.rightCheckCanAuthorize, ["right": .string(current)])
    #expect(check?.code == .invalidContext)
    #expect(check?.reason == "biometrySetChanged")
    let started = client.recorder.notifications(Notification.started).count
    let again = await client.authorize(current)
    #expect(again?.code == .invalidContext)
    #expect(again?.reason == "biometrySetChanged")
    #expect(client.recorder.notifications(Notification.started).count == started)
  }

  @Test func enrollingThroughTheBrokerTellsTheClientAtOnce() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let current = await client.createRight("biometryCurrentSet")
    await client.authorize(current)
    #expect(client.stateChanges(current).last == "authorized")
    _ = await client.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])
    #expect(client.stateChanges(current).last == "notAuthorized")
  }

  @Test func unenrollAndReenrollStillCountsAsAChange() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight("biometryCurrentSet")
    _ = harness.face.unenroll("alice")
    _ = harness.face.enroll("alice")
    #expect(await client.authorize(right)?.reason == "biometrySetChanged")
  }

  @Test func rightMadeWithNothingEnrolledBindsAtItsFirstAuthorization() async {
    let harness = BrokerHarness(enrolled: [])
    let client = await harness.connect()
    let right = await client.createRight("biometryCurrentSet")
    #expect(await client.authorize(right)?.code == .biometryNotEnrolled)
    _ = harness.face.enroll("alice")
    #expect(await client.authorize(right)?.object?["state"] == "authorized")
    _ = harness.face.enroll("bob")
    #expect(await client.state(right) == "notAuthorized")
  }

  @Test func persistedCurrentSetRightIsInvalidatedAcrossConnections() async throws {
    let (harness, directory) = try rightsHarness()
    let saver = await harness.connect(uid: 1000, gid: 1000)
    let saved = await saver.savedRight(
      "vault", requirement: "biometryCurrentSet", secret: [1, 2, 3])
    #expect(await saver.state(saved) == "authorized")
    await saver.disconnect()

    let later = await harness.connect(uid: 1000, gid: 1000)
    let loaded = try #require(await later.load("vault")?.object?["right"]?.stringValue)
    await later.authorize(loaded)
    #expect(
      await later.call(Method.secretLoad, ["right": .string(loaded)])?.bytes("secret") == [1, 2, 3])
    _ = harness.face.enroll("bob")
    let secret = await later.call(Method.secretLoad, ["right": .string(loaded)])
    #expect(secret?.code == .invalidContext)
    #expect(secret?.reason == "biometrySetChanged")
    #expect(
      await later.call(Method.rightCheckCanAuthorize, ["right": .string(loaded)])?.reason
        == "biometrySetChanged")

    let fresh = try #require(await later.load("vault")?.object?["right"]?.stringValue)
    #expect(await later.authorize(fresh)?.reason == "biometrySetChanged")
    _ = directory
  }
}
