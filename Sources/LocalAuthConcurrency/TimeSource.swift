import Glibc

/// The clock the broker and simulated drivers wait on, injected so tests never sleep: the core
/// reads no clock of its own. Implementations are thread-safe.
public protocol TimeSource: Sendable {
  /// Time since an arbitrary fixed origin (monotonic).
  func now() -> Duration
  /// Time since 1970 (wall clock), for what is stored or shown as a date.
  func sinceEpoch() -> Duration
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

  /// CLOCK_REALTIME.
  public func sinceEpoch() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }

  /// Sleeps on ContinuousClock.
  public func sleep(until deadline: Duration) async throws {
    try await ContinuousClock().sleep(until: origin + deadline)
  }
}
