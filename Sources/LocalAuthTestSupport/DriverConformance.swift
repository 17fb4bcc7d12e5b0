import Sensors

/// What a person does at the sensor while a capture waits, as the conformance suite asks for it.
public enum Presentation: Sendable {
  /// The owner's enrolled identity: the capture matches.
  case enrolled
  /// Someone or something else: the capture does not match.
  case other
  /// A read that cannot be judged: the capture is a retry.
  case unreadable
}

/// One driver under the conformance suite, started, with the means to make its sensor see things
/// (a script, a virtual camera, libfprint's virtual device).
public protocol DriverRig: Sendable {
  /// The driver, started and ready.
  var driver: any SensorDriver { get }
  /// An owner with `identity` enrolled.
  var owner: SensorOwner { get }
  /// The identity enrolled for `owner`, as a match names it.
  var identity: String { get }
  /// The reason an `.unreadable` presentation gives.
  var retryReason: RetryReason { get }
  /// Whether `enroll` / `unenroll` change the enrolled set (fprintd leaves that to fprintd-enroll).
  var enrollsThroughDriver: Bool { get }
  /// Makes the sensor see `presentation`; called after the capture has begun.
  func present(_ presentation: Presentation) async throws
  /// Returns once the capture just begun for `request` waits for a person, as far as the rig can
  /// tell (a capture that is then cancelled or stopped without any presentation): on an event of
  /// the driver's where it has one, never on a fixed sleep.
  func waitUntilSensorWaits(for request: CaptureRequest) async
  /// Runs `body` where the driver's own work runs (fprintd: its bus loop), to show that a state read
  /// there does not wait on that work.
  func onDriverThread(_ body: @escaping @Sendable () -> Void) async
}

/// The `SensorDriver` requirements every driver meets, checked on a started driver: state never blocks,
/// a capture reports match / noMatch / retry, a cancel ends it (and leaves the sensor usable), the
/// enrolled sets are per owner, and `stop()` fails a waiting capture. Returns what failed (empty when
/// the driver conforms). Stops the driver. Waits are bounded by `deadline` (scale it for slow hosts).
public func checkDriverConformance(_ rig: some DriverRig, deadline: Duration = .seconds(30))
  async -> [String]
{
  var problems: [String] = []
  let driver = rig.driver
  func request(_ attempt: Int) -> CaptureRequest {
    CaptureRequest(requestID: "conformance-\(attempt)", attempt: attempt, owner: rig.owner)
  }
  func note(_ ok: Bool, _ what: @autoclosure () -> String) {
    if !ok { problems.append(what()) }
  }

  // State names the driver, is stable, and never waits: not for owners never asked about, not on
  // the driver's own thread.
  let state = driver.state(for: rig.owner.uid)
  note(
    state.name == driver.name && state.kind == driver.kind, "state names another sensor: \(state)")
  note(state.available, "a started driver is not available: \(state)")
  let readiness = driver.readiness(for: rig.owner.uid)
  note(
    readiness == SensorReadiness(driver.state(for: rig.owner.uid)),
    "readiness(for:) says another thing than state(for:): \(readiness), \(state)")
  let strangers = (0..<16).map { UInt32(60_000 + $0) }
  let answered = await within(deadline) {
    await rig.onDriverThread {
      for uid in strangers { _ = driver.state(for: uid) }
    }
  }
  note(answered, "state(for:) on the driver's own thread did not return")

  // Captures report what the sensor saw.
  for (attempt, (presentation, expected)) in [
    (Presentation.enrolled, CaptureEvent.match(identity: rig.identity)), (.other, .noMatch),
    (.unreadable, .retry(reason: rig.retryReason)),
  ].enumerated() {
    let capture = Task { try await driver.capture(request(attempt + 1)) }
    do {
      try await rig.present(presentation)
    } catch {
      problems.append("the rig could not present \(presentation): \(error)")
    }
    let outcome = await result(of: capture, within: deadline)
    note(outcome == .event(expected), "\(presentation) gave \(outcome), not \(expected)")
  }

  // Enrolled sets are per owner and visible in the next state read.
  let enrolled = driver.state(for: rig.owner.uid).enrolled.map(\.identity)
  note(enrolled.contains(rig.identity), "\(rig.identity) is not in the owner's set \(enrolled)")
  note(
    !driver.state(for: strangers[0]).enrolled.map(\.identity).contains(rig.identity),
    "another owner sees \(rig.identity)")
  let added = driver.enroll("conformance-extra", for: rig.owner.uid)
  let removed = driver.unenroll("conformance-extra", for: rig.owner.uid)
  if rig.enrollsThroughDriver {
    note(added.contains("conformance-extra"), "enroll did not add: \(added)")
    note(!removed.contains("conformance-extra"), "unenroll did not remove: \(removed)")
  } else {
    note(added == enrolled && removed == enrolled, "enroll changed a set it does not own")
  }
  note(
    driver.state(for: rig.owner.uid).enrolled.map(\.identity).contains(rig.identity),
    "enrolling another identity lost \(rig.identity)")

  // A cancel ends a waiting capture, and the next capture still gets the next presentation.
  let cancelled = Task { try await driver.capture(request(10)) }
  _ = driver.state(for: rig.owner.uid)
  await rig.waitUntilSensorWaits(for: request(10))
  cancelled.cancel()
  let cancelOutcome = await result(of: cancelled, within: deadline)
  note(cancelOutcome == .cancelled, "a cancelled capture ended with \(cancelOutcome)")
  let next = Task { try await driver.capture(request(11)) }
  try? await rig.present(.enrolled)
  let nextOutcome = await result(of: next, within: deadline)
  note(
    nextOutcome == .event(.match(identity: rig.identity)),
    "the capture after a cancel gave \(nextOutcome)")

  // stop() fails the waiting capture and every later one; the sensor is then unavailable.
  let waiting = Task { try await driver.capture(request(20)) }
  await rig.waitUntilSensorWaits(for: request(20))
  driver.stop()
  let stopped = await result(of: waiting, within: deadline)
  note(stopped == .failure(.driverNotReady), "stop() left the waiting capture with \(stopped)")
  let afterStop = await result(of: Task { try await driver.capture(request(21)) }, within: deadline)
  note(afterStop == .failure(.driverNotReady), "a capture after stop() gave \(afterStop)")
  let unavailable = await eventually(within: deadline) {
    !driver.state(for: rig.owner.uid).available
  }
  note(unavailable, "a stopped driver says it is available")
  driver.stop()  // idempotent
  return problems
}
