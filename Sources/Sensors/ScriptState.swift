/// The mutable state of a simulated sensor; only touched under its lock.
struct ScriptState {
  var queue: [ScriptCommand] = []
  /// Enrolled identities per owner uid.
  var enrolled: [UInt32: [Enrollment]] = [:]
  /// The owner that start-up enrollments and the script's ENROLL / UNENROLL commands belong to.
  let setupOwner: UInt32
  var nextSerial = 1
  var available: Bool
  var removable: Bool
  var connected = true
  var defaultBehavior: ScriptCommand.DefaultBehavior
  var waiters: [Int: Waiter] = [:]
  var cancelledWaiters: Set<Int> = []
  var nextWaiterID = 0
  /// Set by `stop()`: captures fail and the sensor reports itself unavailable.
  var stopped = false

  init(
    available: Bool, removable: Bool, defaultBehavior: ScriptCommand.DefaultBehavior,
    setupOwner: UInt32
  ) {
    self.setupOwner = setupOwner
    self.available = available
    self.removable = removable
    self.defaultBehavior = defaultBehavior
  }

  mutating func enroll(_ identity: String, for owner: UInt32) {
    guard !enrolled[owner, default: []].contains(where: { $0.identity == identity }) else { return }
    enrolled[owner, default: []].append(Enrollment(identity: identity, serial: nextSerial))
    nextSerial += 1
  }

  mutating func unenroll(_ identity: String, for owner: UInt32) {
    enrolled[owner]?.removeAll { $0.identity == identity }
    if enrolled[owner]?.isEmpty == true { enrolled[owner] = nil }
  }

  /// Applies the state-changing commands at the head of the queue.
  /// A disconnected sensor consumes no answers, so a CONNECT queued behind them reconnects it at once.
  mutating func applyStateChanges() {
    while true {
      while let head = queue.first, head.isStateChange {
        queue.removeFirst()
        apply(head)
      }
      guard !connected, let index = queue.firstIndex(of: .connect) else { return }
      queue.remove(at: index)
      connected = true
    }
  }

  private mutating func apply(_ command: ScriptCommand) {
    switch command {
    case .disconnect: connected = false
    case .connect: connected = true
    case .enroll(let identity): enroll(identity, for: setupOwner)
    case .unenroll(let identity): unenroll(identity, for: setupOwner)
    case .setDefault(let behavior): defaultBehavior = behavior
    default: break
    }
  }

  /// Whether a waiting capture has nothing to act on yet.
  var isIdle: Bool { queue.isEmpty && defaultBehavior == .wait && connected }

  mutating func nextStep(isPasscode: Bool, owner: UInt32) -> CaptureStep {
    applyStateChanges()
    if !connected { return .event(.disconnected) }
    guard !queue.isEmpty else { return defaultBehavior == .wait ? .wait : .defaultOutcome }
    let command = queue.removeFirst()
    let step: CaptureStep
    switch command {
    case .match(let identity):
      step = .event(matchEvent(identity, isPasscode: isPasscode, owner: owner))
    case .noMatch: step = .event(.noMatch)
    case .retry(let reason): step = .event(.retry(reason: reason))
    case .cancel: step = .event(.userCancel)
    case .fallback: step = .event(.userFallback)
    case .passcode(let digits): step = .event(.passcode(digits))
    case .sleep(let ms): step = .sleep(ms)
    default: return nextStep(isPasscode: isPasscode, owner: owner)
    }
    // State changes that now stand at the head take effect at once.
    applyStateChanges()
    return step
  }

  /// The default outcome, unless the script gained commands or the sensor went away meanwhile.
  mutating func defaultEventIfStillIdle(isPasscode: Bool, owner: UInt32) -> CaptureEvent? {
    applyStateChanges()
    guard queue.isEmpty, connected, !stopped else { return nil }
    switch defaultBehavior {
    case .match: return matchEvent(nil, isPasscode: isPasscode, owner: owner)
    case .noMatch: return .noMatch
    case .wait: return nil
    }
  }

  /// A match by `identity` (or by the owner's first identity): only `owner`'s enrolled identities match.
  func matchEvent(_ identity: String?, isPasscode: Bool, owner: UInt32) -> CaptureEvent {
    if isPasscode { return .match(identity: "passcode") }
    let mine = enrolled[owner] ?? []
    if let identity {
      return mine.contains { $0.identity == identity } ? .match(identity: identity) : .noMatch
    }
    return mine.first.map { .match(identity: $0.identity) } ?? .noMatch
  }
}
