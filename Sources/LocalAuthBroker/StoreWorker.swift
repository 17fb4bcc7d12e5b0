import Dispatch

/// Where the rights store's calls run: one thread, one call at a time, in order. The daemon passes
/// one that runs below its event loop (LocalAuthServer's `BelowLoopStoreThread`); without one the
/// broker uses a serial DispatchQueue.
public protocol StoreThread: Sendable {
  /// Runs `job` on the thread after the jobs queued before it.
  func run(_ job: @escaping @Sendable () -> Void)
}

/// A serial DispatchQueue as the store's thread (tests, tools).
struct DispatchStoreThread: StoreThread {
  private let queue = DispatchQueue(label: "localauthd.rights-store")

  func run(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
}

/// Runs every rights-store call (SQLite reads, and writes with fsync) on a thread of its own, so the
/// event loop — and every other client — never waits on the disk. Calls run one at a time, in order.
/// Client store requests reach it only once admitted by `StoreBacklog`; owner-state writes come at
/// most one per evaluation outcome. Together these bound its queue. Thread-safe.
final class StoreWorker: Sendable {
  private let thread: any StoreThread

  /// A worker running its calls on `thread`.
  init(thread: any StoreThread = DispatchStoreThread()) { self.thread = thread }

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
    let done = DispatchSemaphore(value: 0)
    thread.run { done.signal() }
    done.wait()
  }
}
