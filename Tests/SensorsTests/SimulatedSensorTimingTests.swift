import LocalAuthConcurrency
import LocalAuthTestSupport
import Sensors
import Testing

/// SLEEP, the default delay and DEFAULT WAIT: captures that wait on the test clock or the script.
@Suite("SimulatedSensor timing", .timeLimit(.minutes(1)))
struct SimulatedSensorTimingTests {
  @Test("SLEEP waits for the clock: the capture ends only once the test advances past it")
  func sleepWaitsForClock() async {
    let (sensor, clock) = makeSensor(script: script("SLEEP 500", "MATCH alice"))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    #expect(clock.nextDeadline == .milliseconds(500))
    #expect(!probe.isFinished)
    clock.advance(by: .milliseconds(499))
    #expect(clock.sleeperCount == 1, "not due yet")
    await letOthersRun()
    #expect(!probe.isFinished)
    clock.advance(by: .milliseconds(1))
    #expect(await probe.event() == .match(identity: "alice"))
    #expect(clock.sleeperCount == 0)
  }

  @Test("consecutive SLEEPs add up")
  func consecutiveSleeps() async {
    let (sensor, clock) = makeSensor(script: script("SLEEP 100", "SLEEP 200", "NOMATCH"))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    clock.advance(by: .milliseconds(100))
    await waitForSleepers(clock, 1)
    #expect(clock.nextDeadline == .milliseconds(300))
    #expect(!probe.isFinished)
    clock.advance(by: .milliseconds(200))
    #expect(await probe.event() == .noMatch)
  }

  @Test("SLEEP 0 does not wait")
  func sleepZero() async throws {
    let (sensor, clock) = makeSensor(script: script("SLEEP 0", "CANCEL"))
    #expect(try await sensor.capture(captureRequest()) == .userCancel)
    #expect(clock.sleeperCount == 0)
  }

  @Test(
    "DEFAULT MATCH with a default delay answers after the delay",
    arguments: [
      (ScriptCommand.DefaultBehavior.match, CaptureEvent.match(identity: "alice")),
      (.noMatch, .noMatch),
    ])
  func defaultDelay(_ behavior: ScriptCommand.DefaultBehavior, _ expected: CaptureEvent) async {
    let (sensor, clock) = makeSensor(defaultBehavior: behavior, defaultDelay: .seconds(1))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    #expect(clock.nextDeadline == .seconds(1))
    clock.advance(by: .milliseconds(999))
    await letOthersRun()
    #expect(!probe.isFinished)
    clock.advance(by: .milliseconds(1))
    #expect(await probe.event() == expected)
  }

  @Test("a command scripted during the default delay wins over the default outcome")
  func scriptDuringDefaultDelay() async {
    let (sensor, clock) = makeSensor(defaultBehavior: .match, defaultDelay: .seconds(1))
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    _ = sensor.script([.fallback], replace: false)
    clock.advance(by: .seconds(1))
    #expect(await probe.event() == .userFallback)
    #expect(sensor.queuedCommands == 0)
  }

  @Test("DEFAULT WAIT waits until a later script() call")
  func defaultWait() async {
    let (sensor, clock) = makeSensor(defaultBehavior: .wait)
    let probe = CaptureProbe(sensor)
    await letOthersRun()
    #expect(!probe.isFinished)
    #expect(clock.sleeperCount == 0, "waiting on the script, not the clock")
    clock.advance(by: .seconds(3600))
    await letOthersRun()
    #expect(!probe.isFinished, "time alone does not end a wait")
    #expect(sensor.script([.match(identity: "alice")], replace: false) == 1, "one answer queued")
    #expect(await probe.event() == .match(identity: "alice"))
    #expect(sensor.queuedCommands == 0)
  }

  @Test("a state change alone does not end a wait; the next answer does")
  func stateChangeKeepsWaiting() async {
    let (sensor, _) = makeSensor(enrolled: [], defaultBehavior: .wait)
    let probe = CaptureProbe(sensor)
    await letOthersRun()
    #expect(sensor.script([.enroll("dave")], replace: false) == 0)
    await letOthersRun()
    #expect(!probe.isFinished)
    #expect(sensor.state().enrolled.map(\.identity) == ["dave"])
    _ = sensor.script([.match(identity: "dave")], replace: false)
    #expect(await probe.event() == .match(identity: "dave"))
  }

  @Test("DEFAULT MATCH scripted while a capture waits ends the wait with a match")
  func defaultChangedWhileWaiting() async {
    let (sensor, _) = makeSensor(defaultBehavior: .wait)
    let probe = CaptureProbe(sensor)
    await letOthersRun()
    _ = sensor.script([.setDefault(.match)], replace: false)
    #expect(await probe.event() == .match(identity: "alice"))
  }

  @Test(
    "a state change behind SLEEP applies when the SLEEP is taken; the capture still ends after the sleep"
  )
  func sleepThenStateChange() async {
    let (sensor, clock) = makeSensor(removable: true)
    _ = sensor.script(script("SLEEP 50", "DISCONNECT", "MATCH"), replace: false)
    let probe = CaptureProbe(sensor)
    await waitForSleepers(clock, 1)
    #expect(!sensor.state().connected, "DISCONNECT reached the head when SLEEP was taken")
    #expect(!probe.isFinished)
    clock.advance(by: .milliseconds(50))
    #expect(await probe.event() == .disconnected)
    #expect(sensor.queuedCommands == 1, "MATCH is kept for after a reconnect")
  }

  @Test("SystemTimeSource starts near zero and never goes back")
  func systemTimeSource() async throws {
    let time = SystemTimeSource()
    let first = time.now()
    #expect(first >= .zero && first < .seconds(60))
    #expect(time.now() >= first)
    try await time.sleep(until: .zero)  // a deadline already passed returns at once
    #expect(time.now() >= first)
  }
}
