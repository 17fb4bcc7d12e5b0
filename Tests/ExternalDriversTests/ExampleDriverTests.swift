import ExternalDrivers
import Foundation
import LocalAuthTestSupport
import Sensors
import Testing

/// The protocol end to end with the example driver (Examples/drivers/virtual-face.py).
@Suite struct ExampleDriverTests {
  @Test func announcedEnrollmentsMakeTheSensorAvailablePerOwner() async throws {
    let harness = try DriverHarness()
    try #"{"1000": ["alice-face"], "1001": ["bob-face"]}"#.write(
      toFile: harness.directory + "/enrolled.json", atomically: true, encoding: .utf8)
    let sensor = harness.sensor(harness.exampleCommand)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(sensor.state(for: 1000).enrolled.map(\.identity) == ["alice-face"])
    #expect(sensor.state(for: 1001).enrolled.map(\.identity) == ["bob-face"])
    #expect(sensor.state(for: 1002).enrolled.isEmpty)
  }

  @Test func presentationsBecomeMatchNoMatchRetryAndCancel() async throws {
    let harness = try DriverHarness()
    try #"{"1000": ["alice-face"], "1001": ["bob-face"]}"#.write(
      toFile: harness.directory + "/enrolled.json", atomically: true, encoding: .utf8)
    let sensor = harness.sensor(harness.exampleCommand)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    try harness.camera("SHOW alice-face")
    #expect(try await sensor.capture(DriverHarness.request()) == .match(identity: "alice-face"))
    try harness.camera("SHOW bob-face")
    #expect(try await sensor.capture(DriverHarness.request(attempt: 2)) == .noMatch)
    try harness.camera("BLUR")
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 3))
        == .retry(reason: .faceNotCentered))
    try harness.camera("LEAVE")
    #expect(try await sensor.capture(DriverHarness.request(attempt: 4)) == .userCancel)
    let bob = SensorOwner(uid: 1001, name: "bob")
    try harness.camera("SHOW bob-face")
    #expect(try await sensor.capture(DriverHarness.request(bob)) == .match(identity: "bob-face"))
  }

  @Test func enrollmentGoesToTheDriverAndItsAnswerIsTheSet() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor(harness.exampleCommand)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(sensor.state(for: 1000).enrolled.isEmpty)
    #expect(sensor.enroll("alice-face", for: 1000) == ["alice-face"])
    let serial = sensor.state(for: 1000).enrolled.first?.serial
    try harness.camera("SHOW alice-face")
    #expect(try await sensor.capture(DriverHarness.request()) == .match(identity: "alice-face"))
    let saved = try String(contentsOfFile: harness.directory + "/enrolled.json", encoding: .utf8)
    #expect(saved.contains("alice-face"))
    #expect(sensor.state(for: 1000).enrolled.first?.serial == serial)
    #expect(sensor.unenroll("alice-face", for: 1000).isEmpty)
    try harness.camera("SHOW alice-face")
    #expect(try await sensor.capture(DriverHarness.request(attempt: 2)) == .noMatch)
    #expect(sensor.state(for: 1000).enrolled.isEmpty)
  }

  @Test func aCancelledCaptureLeavesTheNextPresentationToTheNextCapture() async throws {
    let harness = try DriverHarness()
    try #"{"1000": ["alice-face"]}"#.write(
      toFile: harness.directory + "/enrolled.json", atomically: true, encoding: .utf8)
    let sensor = harness.sensor(harness.exampleCommand)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let waiting = Task { try await sensor.capture(DriverHarness.request()) }
    #expect(await harness.waitUntilReceived { $0.hasPrefix("CAPTURE ") }, "no capture reached it")
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    try harness.camera("SHOW alice-face")
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 2)) == .match(identity: "alice-face"))
  }
}

/// An exec driver's life: nothing runs before `start()`, and `stop()` of one never started returns.
@Suite struct ExecDriverLifecycleTests {
  @Test func nothingRunsBeforeStartAndStoppingAnUnstartedDriverReturns() async throws {
    let harness = try DriverHarness()
    let marker = harness.directory + "/spawned"
    let command = [
      try harness.script("driver.sh", "touch \(marker)\necho 'HELLO 1'\necho READY\nsleep 60\n")
    ]
    let sensor = ExecSensor(
      name: "face", kind: .faceID, settings: ExecDriverSettings(command: command), log: { _ in })
    // The sleep is the point: a driver that must not start cannot be waited for.
    try await Task.sleep(for: .milliseconds(200))
    #expect(!FileManager.default.fileExists(atPath: marker))
    #expect(!sensor.state(for: 1000).available)
    let refused = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(refused?.reason == .driverNotReady)
    #expect(
      sensor.reload(
        ExecSensor(
          name: "face", kind: .faceID, settings: ExecDriverSettings(command: command), log: { _ in }
        )) == .kept)
    #expect(
      sensor.reload(
        ExecSensor(
          name: "face", kind: .touchID, settings: ExecDriverSettings(command: command),
          log: { _ in })) == .replaced)
    sensor.stop()
    sensor.start()
    // The sleep is the point, as above: nothing may appear.
    try await Task.sleep(for: .milliseconds(200))
    #expect(
      !FileManager.default.fileExists(atPath: marker), "start() after stop() spawned the driver")
  }
}
