import Dispatch
import LocalAuthBroker

/// A serial DispatchQueue as one of the broker's worker threads: the passcode hasher's in the
/// daemon, and the store's in tests and tools. Thread-safe (a serial queue).
public struct DispatchWorkerThread: WorkerThread {
  private let queue: DispatchQueue

  /// A serial queue with this label.
  public init(label: String) { queue = DispatchQueue(label: label) }

  /// Runs `job` after the jobs queued before it.
  public func run(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
}
