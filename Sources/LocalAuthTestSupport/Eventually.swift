import Foundation

/// How `eventually` waits between two checks of its condition.
public enum WaitPace: Sendable {
  /// `Task.yield()`: for work on the cooperative pool (the broker, a sensor on a test clock), so the
  /// wait costs no wall time and never sleeps.
  case yielding
  /// Sleeps this long: for other threads and processes (a driver, a daemon).
  case polling(Duration)
}

/// The tests' one wait on a condition: checks `condition` until it holds or `timeout` (scaled by
/// `TestTimeout.scale`) has passed on the monotonic clock, pausing by `pace` between checks, and
/// checks it once more at the deadline. Returns whether it held; the caller states what it waited
/// for (`#expect(await eventually { … }, "the reply")`).
public func eventually(
  within timeout: Duration = .seconds(10), pace: WaitPace = .polling(.milliseconds(10)),
  _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let end = ContinuousClock.now + TestTimeout.scaled(timeout)
  while ContinuousClock.now < end {
    if try await condition() { return true }
    switch pace {
    case .yielding: await Task.yield()
    case .polling(let interval): try? await Task.sleep(for: interval)
    }
  }
  return try await condition()
}

/// `eventually` for synchronous tests and helpers (a daemon's start, a process's exit): the same
/// deadline and scale, blocking the calling thread between checks (`polling` only: there is no task
/// to yield): `blocking` is the pause between checks, and says the thread is held.
public func eventually(
  within timeout: Duration = .seconds(10), blocking interval: Duration,
  _ condition: () throws -> Bool
) rethrows -> Bool {
  let end = ContinuousClock.now + TestTimeout.scaled(timeout)
  let pause =
    useconds_t(interval.components.seconds * 1_000_000)
    + useconds_t(interval.components.attoseconds / 1_000_000_000_000)
  while ContinuousClock.now < end {
    if try condition() { return true }
    usleep(pause)
  }
  return try condition()
}
