/// The clock the broker and simulated drivers wait on, injected so tests never sleep.
/// Implementations are thread-safe.
public protocol TimeSource: Sendable {
  /// Time since an arbitrary fixed origin.
  func now() -> Duration
  /// Suspends until `now() >= deadline`; throws CancellationError when the task is cancelled.
  func sleep(until deadline: Duration) async throws
}

extension TimeSource {
  /// Suspends for a duration.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now() + duration)
  }
}

/// The real monotonic clock (ContinuousClock).
public struct SystemTimeSource: TimeSource {
  private let origin = ContinuousClock.now

  /// The system clock.
  public init() {}

  /// Time since this value was made.
  public func now() -> Duration { ContinuousClock.now - origin }

  /// Sleeps on ContinuousClock.
  public func sleep(until deadline: Duration) async throws {
    try await ContinuousClock().sleep(until: origin + deadline)
  }
}
