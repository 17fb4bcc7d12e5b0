import Foundation
import Synchronization

/// A serial executor running jobs on one dedicated thread, for driving the broker in tests the way
/// the daemon's event loop does. `@unchecked Sendable`: `jobs` is guarded by `condition`'s lock.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
  // `jobs` is guarded by `condition`'s lock.
  private var jobs: [UnownedJob] = []
  private let condition = NSCondition()

  /// Starts the thread.
  public init() {
    let thread = Thread { [unowned self] in self.run() }
    thread.name = "broker-test-executor"
    thread.start()
  }

  /// Queues a job.
  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    condition.lock()
    jobs.append(unowned)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let batch = jobs
      jobs.removeAll()
      condition.unlock()
      for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
    }
  }
}
