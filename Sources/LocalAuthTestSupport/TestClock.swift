import LocalAuthConcurrency
import Sensors

/// A clock that moves only when a test says so. Thread-safe.
public final class TestClock: TimeSource {
  private struct Sleeper {
    let deadline: Duration
    let continuation: CheckedContinuation<Void, any Error>
  }
  private struct State {
    var now: Duration = .zero
    var sleepers: [Int: Sleeper] = [:]
    var cancelled: Set<Int> = []
    var nextID = 0
  }
  private let state = StateLock(State())

  /// A clock at time zero.
  public init() {}

  /// The current test time.
  public func now() -> Duration { state.withLock { $0.now } }

  /// Where the wall clock stands at test time zero: 2026-12-01 00:00:00 UTC.
  public static let epochAtZero: Duration = .seconds(1_796_083_200)

  /// The wall clock: `epochAtZero` plus the test time.
  public func sinceEpoch() -> Duration { Self.epochAtZero + now() }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The earliest deadline anyone sleeps until.
  public var nextDeadline: Duration? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

  /// Moves time forward and wakes every sleeper whose deadline has come.
  public func advance(by duration: Duration) {
    let due = state.withLock { s in
      s.now += duration
      let due = s.sleepers.filter { $0.value.deadline <= s.now }
      for id in due.keys { s.sleepers[id] = nil }
      return Array(due.values)
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Sleeps until the test advances past the deadline.
  public func sleep(until deadline: Duration) async throws {
    let id = state.withLock { s in
      s.nextID += 1
      return s.nextID
    }
    defer { _ = state.withLock { $0.cancelled.remove(id) } }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        enum Verdict { case cancelled, due, waiting }
        let verdict: Verdict = state.withLock { s in
          if s.cancelled.contains(id) { return .cancelled }
          if deadline <= s.now { return .due }
          s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return .waiting
        }
        switch verdict {
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .due: continuation.resume()
        case .waiting: break
        }
      }
    } onCancel: {
      let sleeper = state.withLock { s in
        if let sleeper = s.sleepers.removeValue(forKey: id) { return Optional(sleeper) }
        s.cancelled.insert(id)
        return nil
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }
}
