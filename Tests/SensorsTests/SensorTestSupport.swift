import LocalAuthTestSupport
import Sensors
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waits until exactly `count` tasks sleep on the clock, recording an issue when they never do.
func waitForSleepers(
  _ clock: TestClock, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation
) async {
  let reached = await eventually(pace: .yielding) { clock.sleeperCount == count }
  #expect(
    reached, "expected \(count) sleeper(s), have \(clock.sleeperCount)",
    sourceLocation: sourceLocation)
}

/// Gives other tasks a chance to run (for asserting that something has *not* happened yet).
func letOthersRun(_ times: Int = 2_000) async {
  for _ in 0..<times { await Task.yield() }
}

/// A capture request for tests.
func captureRequest(_ attempt: Int = 1) -> CaptureRequest {
  CaptureRequest(requestID: "req-test", attempt: attempt)
}

/// A Boolean that tasks may set from any thread.
final class Flag: Sendable {
  private let value = Mutex(false)
  /// Sets the flag.
  func set() { value.withLock { $0 = true } }
  /// Whether the flag is set.
  var isSet: Bool { value.withLock { $0 } }
}

/// One capture running in its own task, observable without sleeping.
struct CaptureProbe {
  /// The capture's task.
  let task: Task<CaptureEvent, any Error>
  private let done: Flag

  /// Starts a capture on the sensor.
  init(_ sensor: any SensorDriver, attempt: Int = 1) {
    let done = Flag()
    self.done = done
    task = Task {
      defer { done.set() }
      return try await sensor.capture(captureRequest(attempt))
    }
  }

  /// Whether the capture has ended (with an event or an error).
  var isFinished: Bool { done.isSet }

  /// The event, failing the test when the capture threw.
  func event(sourceLocation: SourceLocation = #_sourceLocation) async -> CaptureEvent? {
    switch await task.result {
    case .success(let event): return event
    case .failure(let error):
      Issue.record("capture threw \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// Whether the capture ended by throwing CancellationError.
  func endedWithCancellation() async -> Bool {
    if case .failure(let error) = await task.result { return error is CancellationError }
    return false
  }
}

/// A simulated sensor on a test clock.
func makeSensor(
  _ kind: SensorKind = .faceID, name: String = "face", enrolled: [String] = ["alice"],
  defaultBehavior: ScriptCommand.DefaultBehavior = .wait, defaultDelay: Duration = .zero,
  script: [ScriptCommand] = [], removable: Bool = false
) -> (SimulatedSensor, TestClock) {
  let clock = TestClock()
  let setup = SimulatedSensor.Setup(
    removable: removable, enrolled: enrolled, defaultBehavior: defaultBehavior,
    defaultDelay: defaultDelay,
    script: script)
  return (SimulatedSensor(name: name, kind: kind, setup: setup, time: clock), clock)
}

/// Parses script lines, failing the test when they do not parse.
func script(_ lines: String..., sourceLocation: SourceLocation = #_sourceLocation)
  -> [ScriptCommand]
{
  do throws(ScriptError) {
    return try ScriptCommand.parse(lines: lines)
  } catch {
    Issue.record("script rejected: \(error)", sourceLocation: sourceLocation)
    return []
  }
}
