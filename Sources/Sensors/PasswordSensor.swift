import Glibc
import LocalAuthConcurrency

/// The login password as a passcode stage (`Kind=password`; docs/drivers.md, "The login password"):
/// a `.passcode` sensor whose identities are "the account has a usable password", asked of the
/// injected `PasswordChecker` and cached per uid. A state read never waits: an owner not asked about
/// yet, or whose answer is older than `staleAfter`, gets the last answer (a usable password when
/// there is none yet, as fprintd's driver assumes fingers until fprintd says) and a refresh in the
/// background. A capture waits for the person to type the password at the prompt agent (the broker
/// races it against the agent's answer); it ends only when cancelled or stopped. Thread-safe.
public final class PasswordSensor: LoginPasswordSensor {
  /// The sensor's name.
  public let name: String
  /// Always `.passcode`: the stage it serves.
  public var kind: SensorKind { .passcode }
  /// How old an answer may be before a state read refreshes it.
  public static let staleAfter = Duration.seconds(30)
  /// The most uids remembered.
  static let maxOwners = 4096
  /// The identity a usable password shows as in `state(for:)`.
  public static let identity = "password"

  private let checker: any PasswordChecker
  private struct Cache {
    var usable: [UInt32: (usable: Bool, at: ContinuousClock.Instant)] = [:]
    var refreshing: Set<UInt32> = []
    var stopped = false
  }
  private let cache = StateLock(Cache())

  /// A sensor asking `checker`.
  public init(name: String, checker: any PasswordChecker) {
    self.name = name
    self.checker = checker
  }

  /// Whether `owner` has a usable password as last known (true before the first answer).
  private func usable(_ owner: UInt32) -> (usable: Bool, available: Bool) {
    let now = ContinuousClock.now
    let (entry, stopped, refresh) = cache.withLock { cache in
      let entry = cache.usable[owner]
      let due = entry.map { now - $0.at > Self.staleAfter } ?? true
      let refresh = due && !cache.stopped && cache.refreshing.insert(owner).inserted
      return (entry, cache.stopped, refresh)
    }
    if refresh { Task { await self.refresh(owner) } }
    return (entry?.usable ?? true, !stopped)
  }

  /// Asks the checker about `owner` and stores the answer (an unanswered question keeps the last one).
  public func refresh(_ owner: UInt32) async {
    let answer = await checker.hasUsablePassword(uid: owner)
    cache.withLock { cache in
      cache.refreshing.remove(owner)
      guard let answer else { return }
      if cache.usable.count >= Self.maxOwners { cache.usable.removeAll() }
      cache.usable[owner] = (answer, .now)
    }
  }

  /// Available unless stopped; the owner's one identity when the password is usable.
  public func state(for owner: UInt32) -> SensorState {
    let (usable, available) = usable(owner)
    return SensorState(
      name: name, kind: kind, available: available, connected: available, removable: false,
      enrolled: usable ? [Enrollment(identity: Self.identity, serial: 1)] : [])
  }

  /// `state(for:)` without building the enrolled list.
  public func readiness(for owner: UInt32) -> SensorReadiness {
    let (usable, available) = usable(owner)
    return SensorReadiness(
      available: available, connected: available, removable: false, enrolled: usable)
  }

  /// Available unless stopped (no question asked).
  public var availableNow: Bool { cache.withLock { !$0.stopped } }

  /// Waits until cancelled: the password comes from the prompt agent, never from the sensor.
  public nonisolated(nonsending) func capture(_ request: CaptureRequest) async throws
    -> CaptureEvent
  {
    while true {
      if cache.withLock({ $0.stopped }) {
        throw SensorFailure(.driverNotReady, "the password sensor \(name) is stopped")
      }
      try await Task.sleep(for: .milliseconds(500))
    }
  }

  /// One check through the checker; the bytes handed to it are wiped afterwards. The answer also
  /// updates the cache: a right password is a usable one.
  public nonisolated(nonsending) func checkPassword(_ password: String, owner: SensorOwner) async
    -> PasswordCheck
  {
    var bytes = Array(password.utf8)
    defer {
      bytes.withUnsafeMutableBytes { raw in
        if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
      }
    }
    let answer = await checker.check(bytes, uid: owner.uid)
    if answer == .right {
      cache.withLock { $0.usable[owner.uid] = (true, .now) }
    }
    return answer
  }

  /// Passwords are the account's: nothing to enroll here (passwd(1) sets them).
  public func enroll(_ identity: String, for owner: UInt32) -> [String] {
    state(for: owner).enrolled.map(\.identity)
  }

  /// Nothing to unenroll either.
  public func unenroll(_ identity: String, for owner: UInt32) -> [String] {
    state(for: owner).enrolled.map(\.identity)
  }

  /// Nothing to start: the helper is socket-activated.
  public func start() {}

  /// Replaced on every reload: the successor starts with an empty cache (a state read refills it).
  public func reload(_ successor: any SensorDriver) -> DriverReload { .replaced }

  /// Unavailable from now on; a waiting capture fails.
  public func stop() {
    cache.withLock { $0.stopped = true }
  }
}
