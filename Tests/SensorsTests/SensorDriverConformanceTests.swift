import LocalAuthTestSupport
import Sensors
import Testing

/// Checks the "Implementation requirements" of `SensorDriver` on a fresh driver from `make`.
/// `clock` is the TestClock the driver waits on, to check that cancelled captures leave no sleeper.
func checkConformance(
  clock: TestClock, sourceLocation: SourceLocation = #_sourceLocation,
  _ make: () -> any SensorDriver
) async {
  // state(for:) names the driver and its kind, and is stable when nothing changes.
  let driver = make()
  let state = driver.state(for: 0)
  #expect(state.name == driver.name, sourceLocation: sourceLocation)
  #expect(state.kind == driver.kind, sourceLocation: sourceLocation)
  #expect(driver.state(for: 0) == state, sourceLocation: sourceLocation)
  // readiness(for:) is the snapshot's availability, for every owner.
  for owner: UInt32 in [0, 4242] {
    #expect(
      driver.readiness(for: owner) == SensorReadiness(driver.state(for: owner)),
      sourceLocation: sourceLocation)
  }

  // Enrollment changes are visible in the next state(for:), for that owner only.
  let enrolled = driver.enroll("conformance-1", for: 0)
  #expect(enrolled.contains("conformance-1"), sourceLocation: sourceLocation)
  #expect(
    driver.state(for: 0).enrolled.map(\.identity) == enrolled, sourceLocation: sourceLocation)
  #expect(driver.readiness(for: 0).enrolled, sourceLocation: sourceLocation)
  #expect(
    !driver.state(for: 4242).enrolled.map(\.identity).contains("conformance-1"),
    "another owner sees the enrollment", sourceLocation: sourceLocation)
  let remaining = driver.unenroll("conformance-1", for: 0)
  #expect(!remaining.contains("conformance-1"), sourceLocation: sourceLocation)
  #expect(
    driver.state(for: 0).enrolled.map(\.identity) == remaining, sourceLocation: sourceLocation)
  #expect(
    driver.unenroll("conformance-1", for: 0) == remaining, "unenrolling twice is harmless",
    sourceLocation: sourceLocation)

  // A capture cancelled before it starts throws CancellationError at once.
  let early = Task {
    withUnsafeCurrentTask { $0?.cancel() }
    return try await driver.capture(CaptureRequest(requestID: "conformance", attempt: 1))
  }
  if case .failure(let error) = await early.result {
    #expect(error is CancellationError, "\(error)", sourceLocation: sourceLocation)
  } else {
    Issue.record("a capture in a cancelled task returned an event", sourceLocation: sourceLocation)
  }

  // A capture that waits ends promptly on cancellation and leaks no sleeper.
  let scriptable = driver as? any ScriptableSensor
  _ = scriptable?.script([.sleep(milliseconds: 60_000), .noMatch], replace: true)
  let probe = CaptureProbe(driver)
  if scriptable != nil {
    await waitForSleepers(clock, 1, sourceLocation: sourceLocation)
  } else {
    await letOthersRun()
  }
  probe.task.cancel()
  let result = await probe.task.result
  if case .failure(let error) = result {
    #expect(error is CancellationError, "\(error)", sourceLocation: sourceLocation)
  }
  #expect(
    clock.sleeperCount == 0, "a cancelled capture leaked a sleeper", sourceLocation: sourceLocation)

  // Input meant for a later capture is still there.
  if let scriptable {
    #expect(scriptable.queuedCommands == 1, sourceLocation: sourceLocation)
    let next = try? await driver.capture(CaptureRequest(requestID: "conformance", attempt: 2))
    #expect(next == .noMatch, sourceLocation: sourceLocation)
    #expect(scriptable.queuedCommands == 0, sourceLocation: sourceLocation)

    // The same for a capture that waits on the script rather than the clock.
    _ = scriptable.script([.setDefault(.wait)], replace: true)
    let waiting = CaptureProbe(driver)
    await letOthersRun()
    #expect(!waiting.isFinished, sourceLocation: sourceLocation)
    waiting.task.cancel()
    #expect(await waiting.endedWithCancellation(), sourceLocation: sourceLocation)
    _ = scriptable.script([.cancel], replace: false)
    let after = try? await driver.capture(CaptureRequest(requestID: "conformance", attempt: 3))
    #expect(after == .userCancel, sourceLocation: sourceLocation)
  }
  #expect(clock.sleeperCount == 0, sourceLocation: sourceLocation)
}

/// Every shipped driver passes `checkConformance`: the simulated sensor in all five kinds.
@Suite("SensorDriver conformance", .timeLimit(.minutes(1)))
struct SensorDriverConformanceTests {
  @Test("SimulatedSensor conforms", arguments: SensorKind.allCases)
  func simulated(_ kind: SensorKind) async {
    let clock = TestClock()
    await checkConformance(clock: clock) {
      SimulatedSensor(name: "sim-\(kind.rawValue)", kind: kind, time: clock)
    }
  }

  @Test(
    "SimulatedSensor conforms with enrollments, a default behaviour and a removable setup",
    arguments: SensorKind.allCases)
  func simulatedConfigured(_ kind: SensorKind) async {
    let clock = TestClock()
    let setup = SimulatedSensor.Setup(
      removable: true, enrolled: ["alice"], defaultBehavior: .match, defaultDelay: .seconds(1))
    await checkConformance(clock: clock) {
      SimulatedSensor(name: "configured", kind: kind, setup: setup, time: clock)
    }
  }
}

/// A simulated sensor under the shared driver suite: each presentation is a script command.
struct SimulatedRig: DriverRig {
  let sensor: SimulatedSensor
  var driver: any SensorDriver { sensor }
  let owner = SensorOwner(uid: 1000, name: "alice")
  let identity = "alice-face"
  let retryReason = RetryReason.tooFast
  let enrollsThroughDriver = true

  init(kind: SensorKind) {
    sensor = SimulatedSensor(
      name: "sim-\(kind.rawValue)", kind: kind,
      setup: SimulatedSensor.Setup(enrolled: [identity], owner: owner.uid), time: TestClock())
    sensor.start()
  }

  func present(_ presentation: Presentation) async throws {
    let command: ScriptCommand =
      switch presentation {
      case .enrolled: .match(identity: identity)
      case .other: .noMatch
      case .unreadable: .retry(reason: retryReason)
      }
    _ = sensor.script([command], replace: false)
  }

  /// The capture waits on the script once it has run: let it run.
  func waitUntilSensorWaits(for request: CaptureRequest) async { await letOthersRun() }

  func onDriverThread(_ body: @escaping @Sendable () -> Void) async { body() }
}

/// The shared driver suite (LocalAuthTestSupport's `checkDriverConformance`) on the simulated sensor;
/// ExecDriverConformanceTests and FprintdEndToEndTests (theFprintdSensorPassesTheSharedSuite) run it on the other drivers.
@Suite("SensorDriver shared suite: simulated", .timeLimit(.minutes(1)))
struct SimulatedDriverConformanceTests {
  @Test(arguments: SensorKind.allCases.filter { $0 != .passcode })
  func simulatedSensorPassesTheSharedSuite(_ kind: SensorKind) async {
    let problems = await checkDriverConformance(SimulatedRig(kind: kind))
    #expect(problems.isEmpty, "\(problems)")
  }
}
