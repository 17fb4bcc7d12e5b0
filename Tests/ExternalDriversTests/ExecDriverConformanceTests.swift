import ExternalDrivers
import Foundation
import LocalAuthTestSupport
import Sensors
import Testing

/// The example driver (Examples/drivers/virtual-face.py) under the shared driver suite: each
/// presentation is a line on its virtual camera.
struct ExampleDriverRig: DriverRig {
  let harness: DriverHarness
  let sensor: ExecSensor
  var driver: any SensorDriver { sensor }
  let owner = DriverHarness.alice
  let identity = "alice-face"
  let retryReason = RetryReason.faceNotCentered
  let enrollsThroughDriver = true

  init() throws {
    harness = try DriverHarness()
    try #"{"1000": ["alice-face"], "1001": ["bob-face"]}"#.write(
      toFile: harness.directory + "/enrolled.json", atomically: true, encoding: .utf8)
    sensor = harness.sensor(harness.exampleCommand)
  }

  func present(_ presentation: Presentation) async throws {
    switch presentation {
    case .enrolled: try harness.camera("SHOW alice-face")
    case .other: try harness.camera("SHOW bob-face")
    case .unreadable: try harness.camera("BLUR")
    }
  }

  /// The driver does not say when it waits: wait for the capture's CAPTURE line to reach it.
  func waitUntilSensorWaits(for request: CaptureRequest) async {
    _ = await harness.waitUntilReceived {
      $0.hasPrefix("CAPTURE ") && $0.hasSuffix(" \(request.attempt)")
    }
  }

  func onDriverThread(_ body: @escaping @Sendable () -> Void) async { body() }
}

@Suite struct ExecDriverConformanceTests {
  @Test func theExampleDriverPassesTheSharedSuite() async throws {
    let rig = try ExampleDriverRig()
    defer { rig.sensor.stop() }
    #expect(await eventually { rig.sensor.state(for: DriverHarness.alice.uid).available })
    let problems = await checkDriverConformance(rig)
    #expect(problems.isEmpty, "\(problems)")
  }
}
