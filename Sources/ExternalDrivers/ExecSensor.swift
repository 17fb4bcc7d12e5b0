import CDriverProcess
import Dispatch
import Glibc
import LocalAuthConcurrency
import Sensors

/// A sensor whose driver is another program, started and supervised by the daemon, speaking the line
/// protocol of docs/driver-protocol.md on its stdin and stdout. Thread-safe: all state sits behind one
/// lock; one supervisor thread per driver reads its output, pings it, and restarts it with back-off.
/// `@unchecked Sendable`: the lock guards all mutable state; the wake pipe's descriptors never
/// change after init.
public final class ExecSensor: SensorDriver, @unchecked Sendable {
  // The lock guards all mutable state; the wake pipe's descriptors never change after init.
  /// The sensor's name.
  public let name: String
  /// The kind of hardware the driver stands for.
  public let kind: SensorKind
  /// How the driver is started and supervised.
  public let settings: ExecDriverSettings
  let storage: StateLock<ExecDriverState>
  let log: @Sendable (String) -> Void
  let wakeRead: Int32
  let wakeWrite: Int32
  private let finished = DispatchSemaphore(value: 0)

  /// A driver that does not run yet (`start()` runs it). `log` receives journal lines (sanitized).
  public init(
    name: String, kind: SensorKind, settings: ExecDriverSettings,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.name = name
    self.kind = kind
    self.settings = settings
    self.log = log
    storage = StateLock(ExecDriverState(phase: .down(restartAt: .now)))
    var fds: [Int32] = [-1, -1]
    _ = ldp_wake_pipe(&fds)
    wakeRead = fds[0]
    wakeWrite = fds[1]
  }

  deinit {
    // The supervisor holds the sensor while it runs: it is gone by now, and so is every writer.
    close(wakeRead)
    close(wakeWrite)
  }

  /// Starts the driver's supervisor, and with it the driver (once; not after `stop()`).
  public func start() {
    let first = storage.withLock { s in
      defer { s.started = true }
      return !s.started && !s.stopping
    }
    guard first else { return }
    // Its own serial queue: the supervisor blocks in poll(2) for the driver's lifetime.
    DispatchQueue(label: "localauthd.driver-\(name)").async { [self] in
      supervise()
      finished.signal()
    }
  }

  /// `.kept` when `successor` is an exec driver of the same name, kind and settings.
  public func reload(_ successor: any SensorDriver) -> DriverReload {
    guard let other = successor as? ExecSensor, other.name == name, other.kind == kind,
      other.settings == settings, !storage.withLock({ $0.stopping })
    else { return .replaced }
    return .kept
  }

  /// Stops the driver (killing its process group) and its supervisor; waits until both are gone.
  /// Captures still waiting fail with `driverNotReady`. Idempotent.
  public func stop() {
    let (first, started) = storage.withLock { s in
      defer { s.stopping = true }
      return (!s.stopping, s.started)
    }
    guard first, started else { return }
    wake()
    finished.wait()
  }

  /// Availability (ready or not) and the identities the driver announced for `owner`.
  public func state(for owner: UInt32) -> SensorState {
    storage.withLock { s in
      SensorState(
        name: name, kind: kind, available: s.phase == .ready && !s.stopping, connected: true,
        removable: false, enrolled: s.enrolled[owner] ?? [])
    }
  }

  /// Asks the driver to enroll; the answer is the driver's next `ENROLLED` line for `owner`, assumed
  /// here until it comes.
  public func enroll(_ identity: String, for owner: UInt32) -> [String] {
    storage.withLock { s in
      if s.phase == .ready, let process = s.process,
        process.send(DriverCommand.enroll(uid: owner, identity: identity).line) == .sent
      {
        _ = s.setEnrolled((s.enrolled[owner] ?? []).map(\.identity) + [identity], for: owner)
      }
      return (s.enrolled[owner] ?? []).map(\.identity)
    }
  }

  /// Asks the driver to remove an identity; assumed removed until its next `ENROLLED` line.
  public func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    storage.withLock { s in
      if s.phase == .ready, let process = s.process,
        process.send(DriverCommand.unenroll(uid: owner, identity: identity).line) == .sent
      {
        _ = s.setEnrolled(
          (s.enrolled[owner] ?? []).map(\.identity).filter { $0 != identity }, for: owner)
      }
      return (s.enrolled[owner] ?? []).map(\.identity)
    }
  }

  /// Sends `CAPTURE` and waits for the driver's answer; throws `SensorFailure` when the driver is not
  /// ready, crashes, hangs or writes garbage meanwhile, and `CancellationError` (after sending `CANCEL`)
  /// when the task is cancelled.
  nonisolated(nonsending) public func capture(_ request: CaptureRequest) async throws
    -> CaptureEvent
  {
    try Task.checkCancellation()
    let id = storage.withLock { s in
      defer { s.nextCaptureID += 1 }
      return s.nextCaptureID
    }
    defer { _ = storage.withLock { $0.cancelled.remove(id) } }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<CaptureEvent, any Error>) in
        let refusal: (any Error)? = storage.withLock { s in
          if s.cancelled.contains(id) { return CancellationError() }
          guard s.phase == .ready, !s.stopping, let process = s.process else {
            return SensorFailure(.driverNotReady, "driver \(name) is not ready")
          }
          let command = DriverCommand.capture(
            id: id, uid: request.owner.uid, user: request.owner.name, attempt: request.attempt)
          // A driver that is gone (killed a moment ago) is settled by the supervisor: its end of
          // output fails this capture with how it ended, or, if it only closed its input, the
          // ping's deadline does.
          if process.send(command.line) == .notRead {
            let failure = SensorFailure(.driverHung, "driver \(name) does not read its input")
            s.killRequest = failure
            return failure
          }
          s.captures[id] = PendingCapture(owner: request.owner.uid, continuation: continuation)
          if s.ping == nil { s.nextPingAt = .now }
          return nil
        }
        if let refusal {
          continuation.resume(throwing: refusal)
        }
        wake()
      }
    } onCancel: {
      let pending: PendingCapture? = storage.withLock { s in
        guard let pending = s.captures.removeValue(forKey: id) else {
          s.cancelled.insert(id)
          return nil
        }
        s.process?.send(DriverCommand.cancel(id: id).line)
        return pending
      }
      pending?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Wakes the supervisor's poll.
  func wake() {
    var byte: UInt8 = 1
    _ = ldp_write(wakeWrite, &byte, 1)
  }
}
