import LocalAuthConcurrency
import Sensors

/// The daemon's event loop as a bus client needs it: a descriptor watched for readiness, and work run
/// on the loop's thread. A driver's bus connection lives there; no thread waits on a call.
public protocol BusLoop: SerialLoop {
  /// Watches `fd` for `events` (poll bits) and calls `onReady` on the loop thread; again with new events.
  func watch(_ fd: Int32, events: UInt32, onReady: @escaping () -> Void)
  /// Stops watching `fd`.
  func unwatch(_ fd: Int32)
  /// Runs `work` on the loop thread soon (from any thread).
  func perform(_ work: @escaping @Sendable () -> Void)
  /// Runs `work` on the loop thread after `delay` (from any thread).
  func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void)
}
