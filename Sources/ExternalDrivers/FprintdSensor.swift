import CFprintdBus
import Dispatch
import Glibc
import LocalAuthConcurrency
import Sensors
import SystemFacts

/// A fingerprint sensor served by fprintd over the system bus (sd-bus). The bus connection lives in the
/// daemon's event loop (`BusLoop`): every call is asynchronous and no thread waits on one. fprintd is
/// never assumed to stay: a call to its well-known name activates it (D-Bus auto-start) when a
/// capture or a refresh needs it, NameOwnerChanged says when it left or came back, and while idle
/// nothing is claimed or polled, so it exits on its own timer. Each capture
/// is one Claim(user) → VerifyStart("any") → VerifyStatus → VerifyStop → Release cycle; the capture
/// ends with fprintd's final VerifyStatus, and VerifyStop and Release follow off its critical path (a
/// next capture waits for the Release); a cancel sends VerifyStop and Release at once. A state read
/// never calls fprintd on a capture's path: the refresh it asks for runs once the device has been
/// idle for `refreshDelay`. Thread-safe: loop state is `LoopBound` to the loop (checked in debug
/// builds), the enrolled-set cache sits behind a lock.
public final class FprintdSensor: SensorDriver, Sendable {
  /// The sensor's name.
  public let name: String
  /// Always touchID.
  public let kind = SensorKind.touchID
  /// true: a capture is armed when fprintd answers VerifyStart, not when it is asked for.
  public var reportsArming: Bool { true }
  let loop: any BusLoop
  /// The bus fprintd is on; nil for the system bus.
  let busAddress: String?
  let log: @Sendable (String) -> Void
  /// The enrolled-set cache, read from any thread (a lock).
  let cache = StateLock(FprintdCache())
  /// The bus connection and the calls and captures on it (`FprintdLoopState`): bound to `loop`,
  /// checked in debug builds.
  let onLoop: LoopBound<FprintdLoopState>
  /// How long the device stays idle before a state read's refresh calls fprintd: a capture that
  /// follows the read (canEvaluatePolicy, then evaluatePolicy) claims the device first.
  static let refreshDelay = Duration.milliseconds(250)

  /// A sensor not connected yet (`start()` connects it on `loop`).
  ///
  /// - Parameter busAddress: The bus fprintd is on; nil for the system bus (DBUS_SYSTEM_BUS_ADDRESS
  ///   is honoured).
  public init(
    name: String, loop: any BusLoop, busAddress: String? = nil,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.name = name
    self.loop = loop
    self.busAddress = busAddress
    self.log = log
    onLoop = LoopBound(FprintdLoopState(), loop: loop)
  }

  /// Connects to the bus on the loop; once.
  public func start() {
    loop.perform { [self] in
      guard !started, !stopped else { return }
      started = true
      connect()
    }
  }

  /// `.kept` when `successor` is a fprintd sensor of the same name (it has no other setting).
  public func reload(_ successor: any SensorDriver) -> DriverReload {
    guard let other = successor as? FprintdSensor, other.name == name,
      !cache.withLock({ $0.stopped })
    else { return .replaced }
    return .kept
  }

  /// From what fprintd last said, never waiting on the bus: available unless a call to fprintd's name
  /// failed (it is activated on demand, so its idle exit is not unavailability). An owner not asked
  /// about yet gets one placeholder enrollment (`fprintd`): the capture asks fprintd itself.
  public func state(for owner: UInt32) -> SensorState {
    let answer = cache.withLock { $0.answer(owner) }
    if answer.refresh { loop.perform { [self] in refreshWhenIdle([owner]) } }
    var serials =
      answer.fingers.map { fingers in cache.withLock { $0.serials(for: owner, fingers: fingers) } }
      ?? [Enrollment(identity: Self.unknownFingers, serial: 0)]
    serials.sort { $0.serial < $1.serial }
    return SensorState(
      name: name, kind: kind, available: answer.available, connected: answer.available,
      removable: false, enrolled: serials)
  }

  /// `state(for:)`'s readiness, read from the same cache answer (and asking for the same refresh)
  /// without building the enrolled list: fprintd's driver is the one canEvaluatePolicy reads on a
  /// real machine.
  public func readiness(for owner: UInt32) -> SensorReadiness {
    let answer = cache.withLock { $0.answer(owner) }
    if answer.refresh { loop.perform { [self] in refreshWhenIdle([owner]) } }
    // An owner not asked about yet has the placeholder enrollment, as in `state(for:)`.
    let enrolled = answer.fingers.map { !$0.isEmpty } ?? true
    return SensorReadiness(
      available: answer.available, connected: answer.available, removable: false,
      enrolled: enrolled)
  }

  /// The placeholder identity of an owner whose fingers fprintd was not asked about yet.
  static let unknownFingers = "fprintd"

  /// Enrollment is fprintd's job (`fprintd-enroll`): the set is returned unchanged.
  public func enroll(_ identity: String, for owner: UInt32) -> [String] {
    cache.withLock { $0.fingers(owner) } ?? []
  }

  /// Deletion is fprintd's job (`fprintd-delete`): the set is returned unchanged.
  public func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    cache.withLock { $0.fingers(owner) } ?? []
  }

  /// One verify cycle for `request.owner`; `SensorFailure` when fprintd is missing, gone or busy.
  nonisolated(nonsending) public func capture(_ request: CaptureRequest) async throws
    -> CaptureEvent
  {
    try Task.checkCancellation()
    let known = cache.withLock { $0.fingers(request.owner.uid) }
    let box = CancelBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<CaptureEvent, any Error>) in
        let resume = Resumption(continuation, armed: request.armed)
        box.set(resume)
        loop.perform { [self] in
          inFlight.removeAll { $0.isFinished }
          inFlight.append(resume)
          begin(
            owner: request.owner.uid, user: request.owner.name, identity: known?.first,
            resume: resume)
        }
      }
    } onCancel: {
      guard let resume = box.get() else { return }
      resume.finish(.failure(CancellationError()))
      loop.perform { [self] in cancel(resume) }
    }
  }

  /// Closes the bus connection (on the loop): the capture in progress fails with `driverNotReady`,
  /// the calls waiting for fprintd get no answer, and the sensor reports itself unavailable.
  public func stop() {
    cache.withLock { $0.stopped = true }
    loop.perform { [self] in
      guard !stopped else { return }
      stopped = true
      device = nil
      active = nil
      for resume in inFlight { resume.finish(.failure(stoppedFailure)) }
      inFlight.removeAll()
      let waiting = calls.sorted { $0.key < $1.key }.map(\.value)
      calls.removeAll()
      if let bus {
        unwatchBus()
        lfb_close(bus)
        self.bus = nil
      }
      let gone = FprintdReply(
        errorName: "localauthd.Stopped", errorMessage: nil, path: nil, strings: [])
      for then in waiting { then(gone) }
      refreshDue.removeAll()
      // Work waiting for the device lookup or a release goes on now and fails at once (stopped).
      deviceLookupEnded()
      deviceReleased()
    }
  }

  /// What a capture of a stopped sensor throws.
  var stoppedFailure: SensorFailure {
    SensorFailure(.driverNotReady, "fprintd sensor \(name) stopped")
  }

  /// Ends a device lookup: the captures that waited for it go on (loop thread).
  func deviceLookupEnded() {
    lookingForDevice = false
    let waiting = afterDeviceLookup
    afterDeviceLookup.removeAll()
    for next in waiting { next() }
  }

  /// Where a refresh looks up the owner's account name: NSS may block (LDAP, sssd), so never on
  /// the loop, where `state(for:)` is read.
  static let accountLookups = DispatchQueue(label: "localauthd.fprintd.accounts")

  /// Refreshes `owner`'s enrolled set in the background: its account name is looked up on
  /// `accountLookups`, then fprintd is asked on the loop. Callable from any thread.
  func refreshInBackground(_ owner: UInt32) {
    Self.accountLookups.async { [self] in
      let user = Self.accountName(owner)
      loop.perform { [self] in
        guard !stopped else { return }
        // A capture claimed the device meanwhile: the refresh waits until it is idle again.
        guard active == nil else { return refreshWhenIdle([owner]) }
        refresh(owner, user: user)
      }
    }
  }

  /// The account name of a uid (`uid-N` when there is none); may block on NSS.
  static func accountName(_ uid: UInt32) -> String {
    AccountDatabase.name(ofUID: uid) ?? "uid-\(uid)"
  }
}

/// A reply from fprintd to one call.
struct FprintdReply {
  var errorName: String?
  var errorMessage: String?
  var path: String?
  var strings: [String]
}

/// The capture in progress: its continuation and where its cycle is.
final class ActiveVerify {
  let resume: Resumption
  let user: String
  let identity: String
  var claimed = false
  var verifying = false
  var ending = false

  init(resume: Resumption, user: String, identity: String) {
    self.resume = resume
    self.user = user
    self.identity = identity
  }
}

/// A continuation resumed exactly once, from whichever side gets there first. Thread-safe.
final class Resumption: Sendable {
  // `continuation` is taken under the lock (a `StateLock`).
  private let lock = StateLock<CheckedContinuation<CaptureEvent, any Error>?>(nil)
  /// The capture's `CaptureRequest.armed`.
  private let armed: @Sendable () -> Void

  init(
    _ continuation: CheckedContinuation<CaptureEvent, any Error>,
    armed: @escaping @Sendable () -> Void
  ) {
    self.armed = armed
    lock.withLock { $0 = continuation }
  }

  /// Tells the broker that fprintd verifies for this capture, unless it was resumed already.
  func verifying() {
    if !isFinished { armed() }
  }

  /// Whether it was resumed.
  var isFinished: Bool { lock.withLock { $0 == nil } }

  /// Resumes (the first time only).
  func finish(_ result: Result<CaptureEvent, any Error>) {
    let continuation = lock.withLock { state -> CheckedContinuation<CaptureEvent, any Error>? in
      defer { state = nil }
      return state
    }
    continuation?.resume(with: result)
  }
}

/// Hands the capture's resumption to its cancellation handler. Thread-safe.
final class CancelBox: Sendable {
  // Guarded by the lock (a `StateLock`).
  private let lock = StateLock<(Resumption?, Bool)>((nil, false))

  func set(_ resume: Resumption) {
    let cancelled = lock.withLock { state -> Bool in
      state.0 = resume
      return state.1
    }
    if cancelled { resume.finish(.failure(CancellationError())) }
  }

  func get() -> Resumption? {
    lock.withLock { state in
      state.1 = true
      return state.0
    }
  }
}
