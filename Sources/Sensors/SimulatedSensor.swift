import LocalAuthConcurrency

/// A simulated sensor driven by a script (docs/protocol.md, "The script language"). Thread-safe:
/// all state sits behind one lock (a `StateLock`, which ThreadSanitizer understands); captures wait
/// on the injected `TimeSource` or on the script, never on a thread.
public final class SimulatedSensor: ScriptableSensor {
  /// The sensor's name.
  public let name: String
  /// The kind of hardware simulated.
  public let kind: SensorKind
  private let time: any TimeSource
  private let defaultDelay: Duration
  private let storage: StateLock<ScriptState>
  /// How it started out: a reload keeps this driver when its successor starts out the same.
  private let setup: Setup

  /// How a simulated sensor starts out.
  public struct Setup: Sendable, Equatable {
    /// Whether the hardware is present.
    public var available: Bool
    /// Whether it is a removable accessory.
    public var removable: Bool
    /// Identities enrolled at start.
    public var enrolled: [String]
    /// What an empty script does.
    public var defaultBehavior: ScriptCommand.DefaultBehavior
    /// How long the default outcome takes (a user who looks after a second).
    public var defaultDelay: Duration
    /// Commands queued at start.
    public var script: [ScriptCommand]
    /// The owner (uid) that `enrolled` and the script's ENROLL / UNENROLL belong to.
    public var owner: UInt32

    /// A setup; by default available, nothing enrolled, and an empty script waits.
    public init(
      available: Bool = true, removable: Bool = false, enrolled: [String] = [],
      defaultBehavior: ScriptCommand.DefaultBehavior = .wait, defaultDelay: Duration = .zero,
      script: [ScriptCommand] = [], owner: UInt32 = 0
    ) {
      self.owner = owner
      self.available = available
      self.removable = removable
      self.enrolled = enrolled
      self.defaultBehavior = defaultBehavior
      self.defaultDelay = defaultDelay
      self.script = script
    }
  }

  /// A simulated sensor.
  public init(name: String, kind: SensorKind, setup: Setup = Setup(), time: any TimeSource) {
    self.name = name
    self.kind = kind
    self.time = time
    self.setup = setup
    defaultDelay = setup.defaultDelay
    var state = ScriptState(
      available: setup.available, removable: setup.removable,
      defaultBehavior: setup.defaultBehavior,
      setupOwner: setup.owner)
    for identity in setup.enrolled { state.enroll(identity, for: setup.owner) }
    state.queue = setup.script
    state.applyStateChanges()
    storage = StateLock(state)
  }

  /// Nothing to start: a simulated sensor serves from the moment it is built.
  public func start() {}

  /// `.kept` when `successor` is a simulated sensor of the same name, kind and setup (this one keeps
  /// the enrollments and script it gathered since).
  public func reload(_ successor: any SensorDriver) -> DriverReload {
    guard let other = successor as? SimulatedSensor, other.name == name, other.kind == kind,
      other.setup == setup, !storage.withLock({ $0.stopped })
    else { return .replaced }
    return .kept
  }

  /// Ends the sensor: a capture waiting on the script, and every later one, fails with
  /// `driverNotReady` (one in a `SLEEP` fails when the sleep ends); it reports itself unavailable.
  public func stop() {
    let waiters = storage.withLock { s in
      s.stopped = true
      let waiters = Array(s.waiters.values)
      s.waiters.removeAll()
      return waiters
    }
    for waiter in waiters { waiter.fail(stoppedFailure) }
  }

  private var stoppedFailure: SensorFailure {
    SensorFailure(.driverNotReady, "sensor \(name) stopped")
  }

  /// A snapshot of availability and of `owner`'s enrolled identities.
  public func state(for owner: UInt32) -> SensorState {
    storage.withLock { s in
      SensorState(
        name: name, kind: kind, available: s.available && !s.stopped, connected: s.connected,
        removable: s.removable,
        enrolled: s.enrolled[owner] ?? [])
    }
  }

  /// `state(for:)`'s readiness: one lock, nothing copied.
  public func readiness(for owner: UInt32) -> SensorReadiness {
    storage.withLock { s in
      SensorReadiness(
        available: s.available && !s.stopped, connected: s.connected, removable: s.removable,
        enrolled: s.enrolled[owner]?.isEmpty == false)
    }
  }

  /// `state(for:)`'s `available`: one lock, no snapshot.
  public var availableNow: Bool { storage.withLock { $0.available && !$0.stopped } }

  /// A snapshot with the setup owner's enrolled identities.
  public func state() -> SensorState { state(for: storage.withLock { $0.setupOwner }) }

  /// How many commands are queued.
  public var queuedCommands: Int { storage.withLock { $0.queue.count } }

  /// Whether a capture now would get a scripted or default answer rather than wait.
  public var hasScriptedInput: Bool { storage.withLock { !$0.isIdle } }

  /// What a capture gets when the script is empty.
  public var defaultBehavior: ScriptCommand.DefaultBehavior {
    storage.withLock { $0.defaultBehavior }
  }

  /// The queued commands as script lines; `PASSCODE` digits show as `****`.
  public var queuedScript: [String] {
    storage.withLock { s in
      s.queue.map { command in
        if case .passcode = command { return "PASSCODE ****" }
        return command.description
      }
    }
  }

  /// Whether the next answer, after any `SLEEP`, is `CANCEL` or `FALLBACK`.
  public var choiceIsScriptedNext: Bool {
    storage.withLock { s in
      for command in s.queue {
        switch command {
        case .sleep: continue
        case .cancel, .fallback: return true
        default: return false
        }
      }
      return false
    }
  }

  /// Appends or replaces queued commands and wakes a waiting capture.
  public func script(_ commands: [ScriptCommand], replace: Bool) -> Int {
    let (count, waiters) = storage.withLock { s in
      if replace { s.queue = commands } else { s.queue.append(contentsOf: commands) }
      s.applyStateChanges()
      let waiters = Array(s.waiters.values)
      s.waiters.removeAll()
      return (s.queue.count, waiters)
    }
    for waiter in waiters { waiter.resume() }
    return count
  }

  /// Enrolls an identity for `owner`.
  public func enroll(_ identity: String, for owner: UInt32) -> [String] {
    storage.withLock { s in
      s.enroll(identity, for: owner)
      return (s.enrolled[owner] ?? []).map(\.identity)
    }
  }

  /// Removes one of `owner`'s identities.
  public func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    storage.withLock { s in
      s.unenroll(identity, for: owner)
      return (s.enrolled[owner] ?? []).map(\.identity)
    }
  }

  /// Enrolls an identity for the setup owner.
  public func enroll(_ identity: String) -> [String] {
    enroll(identity, for: storage.withLock { $0.setupOwner })
  }

  /// Removes one of the setup owner's identities.
  public func unenroll(_ identity: String) -> [String] {
    unenroll(identity, for: storage.withLock { $0.setupOwner })
  }

  /// Waits for the next scripted (or default) presentation.
  nonisolated(nonsending) public func capture(_ request: CaptureRequest) async throws
    -> CaptureEvent
  {
    while true {
      try Task.checkCancellation()
      let isPasscode = kind == .passcode
      let owner = request.owner.uid
      switch storage.withLock({
        $0.stopped ? .stopped : $0.nextStep(isPasscode: isPasscode, owner: owner)
      }) {
      case .stopped:
        throw stoppedFailure
      case .event(let event):
        return event
      case .sleep(let ms):
        try await time.sleep(for: .milliseconds(ms))
      case .defaultOutcome:
        if defaultDelay > .zero { try await time.sleep(for: defaultDelay) }
        try Task.checkCancellation()
        if let event = storage.withLock({
          $0.defaultEventIfStillIdle(isPasscode: isPasscode, owner: owner)
        }) {
          return event
        }
      case .wait:
        try await waitForScript()
      }
    }
  }

  private nonisolated(nonsending) func waitForScript() async throws {
    let id = storage.withLock { s in
      s.nextWaiterID += 1
      return s.nextWaiterID
    }
    defer { _ = storage.withLock { $0.cancelledWaiters.remove(id) } }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let verdict: WaitVerdict = storage.withLock { s in
          if s.cancelledWaiters.contains(id) { return .cancelled }
          if s.stopped { return .stopped }
          if !s.isIdle { return .ready }
          s.waiters[id] = Waiter(continuation: continuation)
          return .registered
        }
        switch verdict {
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .stopped: continuation.resume(throwing: stoppedFailure)
        case .ready: continuation.resume()
        case .registered: break
        }
      }
    } onCancel: {
      let waiter = storage.withLock { s in
        if let waiter = s.waiters.removeValue(forKey: id) { return Optional(waiter) }
        s.cancelledWaiters.insert(id)
        return nil
      }
      waiter?.cancel()
    }
  }
}

private enum WaitVerdict { case cancelled, stopped, ready, registered }

/// A capture suspended until the script changes.
struct Waiter {
  let continuation: CheckedContinuation<Void, any Error>
  func resume() { continuation.resume() }
  func cancel() { continuation.resume(throwing: CancellationError()) }
  func fail(_ error: any Error) { continuation.resume(throwing: error) }
}

/// What a capture does next.
enum CaptureStep {
  case event(CaptureEvent)
  case sleep(Int)
  case defaultOutcome
  case wait
  case stopped
}
