import Sensors
import Synchronization

/// A simulated sensor that reports its arming as fprintd's driver does: a capture is armed only
/// when the test says so (`arm()`), as fprintd answers VerifyStart some time after it is asked.
final class ArmingDriver: SensorDriver {
  let inner: SimulatedSensor
  private let pending = Mutex<[@Sendable () -> Void]>([])

  init(_ inner: SimulatedSensor) { self.inner = inner }

  var name: String { inner.name }
  var kind: SensorKind { inner.kind }
  var reportsArming: Bool { true }
  func state(for owner: UInt32) -> SensorState { inner.state(for: owner) }

  nonisolated(nonsending) func capture(_ request: CaptureRequest) async throws -> CaptureEvent {
    pending.withLock { $0.append(request.armed) }
    return try await inner.capture(request)
  }

  /// Arms every capture asked for so far (and not armed yet); returns how many.
  @discardableResult
  func arm() -> Int {
    let armed = pending.withLock { list in
      defer { list.removeAll() }
      return list
    }
    for report in armed { report() }
    return armed.count
  }

  /// How many captures wait to be armed.
  var waitingToBeArmed: Int { pending.withLock { $0.count } }

  func enroll(_ identity: String, for owner: UInt32) -> [String] {
    inner.enroll(identity, for: owner)
  }
  func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    inner.unenroll(identity, for: owner)
  }
  func start() { inner.start() }
  func reload(_ successor: any SensorDriver) -> DriverReload { .kept }
  func stop() { inner.stop() }
}
