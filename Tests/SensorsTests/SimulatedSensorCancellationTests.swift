import LocalAuthTestSupport
import Sensors
import Testing

/// Cancelling a capture: prompt, CancellationError, nothing leaked, nothing meant for later consumed.
@Suite("SimulatedSensor cancellation", .timeLimit(.minutes(1)))
struct SimulatedSensorCancellationTests {
  @Test("cancelling a capture that waits on the script ends it with CancellationError")
  func cancelWhileWaiting() async throws {
    let (sensor, clock) = makeSensor(defaultBehavior: .wait)
    let probe = CaptureProbe(sensor)
    await letOthersRun()
    #expect(!probe.isFinished)
    probe.task.cancel()
    #expect(await probe.endedWithCancellation())
    #expect(clock.sleeperCount == 0)
    // The next scripted command is still there for a later capture.
    #expect(sensor.script([.match(identity: "alice")], replace: false) == 1)
    #expect(try await sensor.capture(captureRequest(2)) == .match(identity: "alice"))
  }

  @Test("a command scripted right after the cancel goes to the next capture", arguments: 0..<20)
  func cancelRaceWithScript(_ round: Int) async throws {
    let (sensor, _) = makeSensor(defaultBehavior: .wait)
    let probe = CaptureProbe(sensor)
    await letOthersRun(round * 10)
    probe.task.cancel()
    _ = sensor.script([.noMatch], replace: false)
    let result = await probe.task.result
    switch result {
    case .failure(let error):
      #expect(error is CancellationError)
      #expect(sensor.queuedCommands == 1, "a cancelled capture must not consume the command")
      #expect(try await sensor.capture(captureRequest(2)) == .noMatch)
    case .success(let event):
      // The capture may legitimately have taken the command before it saw the cancellation.
      #expect(event == .noMatch)
      #expect(sensor.queuedCommands == 0)
    }
  }

  @Test("cancelling before the capture starts consumes nothing")
  func cancelBeforeStart() async throws {
    let (sensor, _) = makeSensor(script: [.cancel])
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await sensor.capture(captureRequest())
    }
    let result = await task.result
    guard case .failure(let error) = result else {
      Issue.record("capture returned \(result)")
      return
    }
    #expect(error is CancellationError)
    #expect(sensor.queuedCommands == 1)
    #expect(try await sensor.capture(captureRequest(2)) == .userCancel)
  }

  @Test("cancelling during SLEEP ends the capture and leaves the following command for later")
  func cancelWhileSleeping() async throws {
    let (sensor, clock) = makeSensor(script: script("SLEEP 10000", "MATCH alice"))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    probe.task.cancel()
    #expect(await probe.endedWithCancellation())
    #expect(clock.sleeperCount == 0, "the sleeper is gone")
    #expect(sensor.queuedCommands == 1)
    #expect(try await sensor.capture(captureRequest(2)) == .match(identity: "alice"))
    clock.advance(by: .seconds(10))
    #expect(clock.sleeperCount == 0)
  }

  @Test("cancelling during the default delay ends the capture without an outcome")
  func cancelDuringDefaultDelay() async {
    let (sensor, clock) = makeSensor(defaultBehavior: .match, defaultDelay: .seconds(1))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    probe.task.cancel()
    #expect(await probe.endedWithCancellation())
    #expect(clock.sleeperCount == 0)
  }

  @Test("many cancelled waiters leave the sensor usable")
  func manyCancelledWaiters() async throws {
    let (sensor, _) = makeSensor(defaultBehavior: .wait)
    let probes = (0..<16).map { CaptureProbe(sensor, attempt: $0 + 1) }
    await letOthersRun()
    for probe in probes { probe.task.cancel() }
    for probe in probes { #expect(await probe.endedWithCancellation()) }
    _ = sensor.script([.fallback], replace: false)
    #expect(try await sensor.capture(captureRequest()) == .userFallback)
  }

  @Test("a cancelled waiter does not swallow the wake-up meant for another waiting capture")
  func otherWaiterStillWakes() async {
    let (sensor, _) = makeSensor(defaultBehavior: .wait)
    let cancelled = CaptureProbe(sensor, attempt: 1)
    let waiting = CaptureProbe(sensor, attempt: 2)
    await letOthersRun()
    cancelled.task.cancel()
    #expect(await cancelled.endedWithCancellation())
    #expect(!waiting.isFinished)
    _ = sensor.script([.retry(reason: .tooFast)], replace: false)
    #expect(await waiting.event() == .retry(reason: .tooFast))
  }
}
