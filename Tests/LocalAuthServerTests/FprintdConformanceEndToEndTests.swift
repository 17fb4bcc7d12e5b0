import ExternalDrivers
import Foundation
import Glibc
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthServer

/// The daemon's event loop on a thread of its own, as the loop of a driver's bus connection.
final class LoopThread: @unchecked Sendable {
  // Set once in init; the loop runs on `thread` until `stop()`.
  let loop: EventLoop
  let bus: EventLoopBus
  private let thread: Thread

  init() throws {
    let loop = try EventLoop()
    self.loop = loop
    bus = EventLoopBus(loop: loop)
    thread = Thread { loop.run() }
    thread.start()
  }

  /// Ends the loop after its current turn.
  func stop() {
    let loop = self.loop
    bus.perform { loop.stop() }
  }
}

/// FprintdSensor under the shared driver suite, on a real fprintd with libfprint's virtual device
/// (FprintdStack): each presentation is a virtual-device command sent when fprintd waits for a finger.
struct FprintdRig: DriverRig {
  let stack: FprintdStack
  let sensor: FprintdSensor
  let loop: LoopThread
  var driver: any SensorDriver { sensor }
  let owner = SensorOwner(uid: 0, name: "root")
  let identity = "right-index-finger"
  /// libfprint's FP_DEVICE_RETRY_GENERAL (`RETRY 0`), which fprintd reports as verify-retry-scan.
  let retryReason = RetryReason.retryScan
  let enrollsThroughDriver = false

  func present(_ presentation: Presentation) async throws {
    let command =
      switch presentation {
      case .enrolled: "SCAN root-print"
      case .other: "SCAN someone-else"
      case .unreadable: "RETRY 0"
      }
    let stack = self.stack
    try await onThread { try stack.sendWhenFingerNeeded(command) }
  }

  /// fprintd says when it waits: its device's finger-needed turns true.
  func waitUntilSensorWaits() async {
    let stack = self.stack
    try? await onThread { try stack.waitForFingerNeeded() }
  }

  func onDriverThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      loop.bus.perform {
        body()
        continuation.resume()
      }
    }
  }
}

/// Runs blocking work (the stack's waits) on a thread of its own, off the cooperative pool.
func onThread(_ work: @escaping @Sendable () throws -> Void) async throws {
  try await withCheckedThrowingContinuation {
    (continuation: CheckedContinuation<Void, any Error>) in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

@Suite(.serialized, .enabled(if: FprintdStack.isRunnable)) struct FprintdConformanceEndToEndTests {
  @Test func theFprintdSensorPassesTheSharedSuite() async throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let loop = try LoopThread()
    defer { loop.stop() }
    // sd-bus reads the system bus's address when the sensor connects (on the loop, at start).
    let before = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
    setenv("DBUS_SYSTEM_BUS_ADDRESS", stack.busAddress, 1)
    let sensor = FprintdSensor(name: "finger", loop: loop.bus, log: { _ in })
    sensor.start()
    let rig = FprintdRig(stack: stack, sensor: sensor, loop: loop)
    let asked = await eventually(within: .seconds(30)) {
      sensor.state(for: 0).enrolled.map(\.identity) == ["right-index-finger"]
    }
    if let before {
      setenv("DBUS_SYSTEM_BUS_ADDRESS", before, 1)
    } else {
      unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
    }
    #expect(asked)
    let problems = await checkDriverConformance(rig)
    #expect(problems.isEmpty, "\(problems)")
  }
}
