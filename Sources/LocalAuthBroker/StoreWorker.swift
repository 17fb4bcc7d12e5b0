import Dispatch

/// Runs every rights-store call (SQLite reads, and writes with fsync) on a thread of its own, so the
/// event loop — and every other client — never waits on the disk. Calls run one at a time, in order.
/// Client store requests reach it only once admitted by `StoreBacklog`; owner-state writes come at
/// most one per evaluation outcome. Together these bound its queue. Thread-safe.
final class StoreWorker: Sendable {
  private let queue = DispatchQueue(label: "localauthd.rights-store")

  /// Runs `body` on the store's thread and resumes the caller with its result.
  func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try body() }) }
    }
  }

  /// Queues `body` on the store's thread without waiting for it (state writes nobody awaits).
  func submit(_ body: @escaping @Sendable () -> Void) {
    queue.async(execute: body)
  }

  /// Waits until everything queued so far has run (shutdown: queued state writes reach the disk).
  func drain() {
    queue.sync {}
  }
}
