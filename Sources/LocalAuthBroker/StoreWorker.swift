import LocalAuthConcurrency

/// A thread of the host's that runs the broker's slow work off its executor: one job at a time, in
/// order. The broker makes no thread of its own; the server passes them in (the rights store's runs
/// below the event loop, LocalAuthServer's `BelowLoopStoreThread`; tests pass
/// `DispatchWorkerThread`).
public protocol WorkerThread: Sendable {
  /// Runs `job` on the thread after the jobs queued before it.
  func run(_ job: @escaping @Sendable () -> Void)
}

/// Runs every rights-store call (SQLite reads, and writes with fsync) on a thread of its own, so the
/// event loop — and every other client — never waits on the disk. Calls run one at a time, in order.
/// Client store requests reach it only once admitted by `StoreBacklog`; owner-state writes come at
/// most one per evaluation outcome. Together these bound its queue. Thread-safe.
final class StoreWorker: Sendable {
  private let thread: any WorkerThread

  /// A worker running its calls on `thread`.
  init(thread: any WorkerThread) { self.thread = thread }

  /// Runs `body` on the store's thread and resumes the caller with its result.
  func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      thread.run { continuation.resume(with: Result { try body() }) }
    }
  }

  /// Queues `body` on the store's thread without waiting for it (state writes nobody awaits).
  func submit(_ body: @escaping @Sendable () -> Void) {
    thread.run(body)
  }

  /// Waits until everything queued so far has run (shutdown: queued state writes reach the disk).
  func drain() {
    let done = Gate()
    thread.run { done.open() }
    done.wait()
  }
}
