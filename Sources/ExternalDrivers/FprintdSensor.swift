import CFprintdBus
import Glibc
import Sensors

/// A fingerprint sensor served by fprintd over the system bus (sd-bus). The bus connection lives in the
/// daemon's event loop (`BusLoop`): every call is asynchronous and no thread waits on one. Each capture
/// is one Claim(user) → VerifyStart("any") → VerifyStatus → VerifyStop → Release cycle; a cancel sends
/// VerifyStop and Release at once. Thread-safe: loop state is touched on the loop thread only, the
/// enrolled-set cache sits behind a lock.
public final class FprintdSensor: SensorDriver, @unchecked Sendable {
  // `bus`, `device`, `calls`, `active`, `timeoutCheckScheduled`, `lookingForDevice` and
  // `afterDeviceLookup` are touched on the loop thread only; `cache` is locked.
  /// The sensor's name.
  public let name: String
  /// Always touchID.
  public let kind = SensorKind.touchID
  let loop: any BusLoop
  let log: @Sendable (String) -> Void
  let cache = StateLock(FprintdCache())
  var bus: OpaquePointer?
  var device: String?
  var calls: [UInt64: (FprintdReply) -> Void] = [:]
  var nextToken: UInt64 = 1
  var active: ActiveVerify?
  var timeoutCheckScheduled = false
  /// Whether GetDefaultDevice is in flight (at start, or when fprintd comes back on the bus).
  var lookingForDevice = false
  /// Captures that began while the device was being looked up; they go on once it answers.
  var afterDeviceLookup: [() -> Void] = []

  /// Connects to the system bus on the loop (DBUS_SYSTEM_BUS_ADDRESS is honoured).
  public init(name: String, loop: any BusLoop, log: @escaping @Sendable (String) -> Void) {
    self.name = name
    self.loop = loop
    self.log = log
    loop.perform { [self] in connect() }
  }

  /// Available when fprintd answers with a device; the enrolled fingers of `owner`'s account.
  public func state(for owner: UInt32) -> SensorState {
    let (available, fingers) = enrolledFingers(owner)
    var serials = cache.withLock { $0.serials(for: owner, fingers: fingers) }
    serials.sort { $0.serial < $1.serial }
    return SensorState(
      name: name, kind: kind, available: available, connected: available, removable: false,
      enrolled: serials)
  }

  /// Enrollment is fprintd's job (`fprintd-enroll`): the set is returned unchanged.
  public func enroll(_ identity: String, for owner: UInt32) -> [String] {
    enrolledFingers(owner).fingers
  }

  /// Deletion is fprintd's job (`fprintd-delete`): the set is returned unchanged.
  public func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    enrolledFingers(owner).fingers
  }

  /// One verify cycle for `request.owner`; `SensorFailure` when fprintd is missing, gone or busy.
  nonisolated(nonsending) public func capture(_ request: CaptureRequest) async throws
    -> CaptureEvent
  {
    try Task.checkCancellation()
    let fingers = enrolledFingers(request.owner.uid).fingers
    let box = CancelBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<CaptureEvent, any Error>) in
        let resume = Resumption(continuation)
        box.set(resume)
        loop.perform { [self] in
          begin(user: request.owner.name, identity: fingers.first ?? "fingerprint", resume: resume)
        }
      }
    } onCancel: {
      guard let resume = box.get() else { return }
      resume.finish(.failure(CancellationError()))
      loop.perform { [self] in cancel(resume) }
    }
  }

  /// Closes the bus connection (on the loop).
  public func stop() {
    loop.perform { [self] in
      guard let bus else { return }
      loop.unwatch(lfb_fd(bus))
      lfb_close(bus)
      self.bus = nil
      // Captures waiting for the device lookup fail now (it will never answer).
      deviceLookupEnded()
    }
  }

  /// Ends a device lookup: the captures that waited for it go on (loop thread).
  func deviceLookupEnded() {
    lookingForDevice = false
    let waiting = afterDeviceLookup
    afterDeviceLookup.removeAll()
    for next in waiting { next() }
  }

  /// fprintd's answer for `owner` through a short synchronous query on first use, then from the
  /// cache that every capture and bus event refreshes.
  func enrolledFingers(_ owner: UInt32) -> (available: Bool, fingers: [String]) {
    if let (cached, stale) = cache.withLock({ $0.cached(owner) }) {
      if stale { loop.perform { [self] in refresh(owner) } }
      return cached
    }
    let user = Self.accountName(owner)
    var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: 16)
    let count = lfb_list_enrolled_sync(user, 500_000, &names, Int32(names.count))
    var fingers: [String] = []
    for index in 0..<max(0, Int(count)) {
      if let pointer = names[index] {
        let finger = String(cString: pointer)
        if ScriptCommand.isSaneIdentity(finger) { fingers.append(finger) }
        free(pointer)
      }
    }
    let answer = (count >= 0, fingers)
    cache.withLock { $0.store(owner, answer) }
    return answer
  }

  /// The account name of a uid (`uid-N` when there is none).
  static func accountName(_ uid: UInt32) -> String {
    guard let entry = getpwuid(uid) else { return "uid-\(uid)" }
    return String(cString: entry.pointee.pw_name)
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
final class Resumption: @unchecked Sendable {
  // `continuation` is taken under the lock.
  private let lock = StateLock<CheckedContinuation<CaptureEvent, any Error>?>(nil)

  init(_ continuation: CheckedContinuation<CaptureEvent, any Error>) {
    lock.withLock { $0 = continuation }
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
final class CancelBox: @unchecked Sendable {
  // Guarded by the lock.
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
