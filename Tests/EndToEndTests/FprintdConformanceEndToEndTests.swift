import ExternalDrivers
import Foundation
import Glibc
import LocalAuthConcurrency
import LocalAuthTestSupport
import Sensors
import Synchronization
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
  func waitUntilSensorWaits(for request: CaptureRequest) async {
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

/// In FprintdEndToEndTests' serialized suite: one private fprintd stack runs at a time (two at once
/// on a loaded machine starve each other's virtual device past the tests' deadlines).
extension FprintdEndToEndTests {
  @Test func theFprintdSensorPassesTheSharedSuite() async throws {
    let stack = try FprintdStack()
    try stack.enroll("root", print: "root-print")
    let loop = try LoopThread()
    defer { loop.stop() }
    let journal = Mutex<[String]>([])
    let sensor = FprintdSensor(
      name: "finger", loop: loop.bus, busAddress: stack.busAddress,
      log: { line in journal.withLock { $0.append(line) } })
    sensor.start()
    let rig = FprintdRig(stack: stack, sensor: sensor, loop: loop)
    let asked = await eventually(within: .seconds(30)) {
      sensor.state(for: 0).enrolled.map(\.identity) == ["right-index-finger"]
    }
    #expect(asked)
    let problems = await checkDriverConformance(rig)
    #expect(problems.isEmpty, "\(problems); the sensor said: \(journal.withLock { $0 })")
  }
}
