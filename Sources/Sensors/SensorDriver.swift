/// A biometric or credential source. The broker owns policy (attempts, lockout, fallback);
/// a driver only reports what the "hardware" saw.
///
/// Implementation requirements:
/// - `capture` returns one event per presentation; the broker calls it again for the next try.
/// - `capture` must end promptly when its task is cancelled, by throwing `CancellationError`,
///   without consuming input meant for a later capture and without leaking waiters.
/// - `state()` is cheap and never blocks; it may be called from any thread.
/// - `readiness(for:)` and `availableNow` say what `state(for:)` says (`SensorReadiness(state)`,
///   `state(for: 0).available`); a driver overrides them only to say it for less.
/// - Enrollment changes are visible in the next `state(for:)`.
/// - Enrolled identities belong to an owner (a Linux account, `SensorOwner`): `state(for:)` lists only that
///   owner's, and a capture for `CaptureRequest.owner` matches only that owner's identities.
/// - Drivers are registered by name in a `SensorRegistry` value; nothing is global.
/// - Its life is led by the daemon through `DriverLifecycle`: built (inert), `start()`ed, offered
///   each reloaded configuration (`reload`), `stop()`ped.
public protocol SensorDriver: DriverLifecycle {
  /// The sensor's name.
  var name: String { get }
  /// The kind of hardware.
  var kind: SensorKind { get }
  /// A snapshot of availability and of the identities enrolled for `owner` (a uid).
  func state(for owner: UInt32) -> SensorState
  /// `state(for: 0).available` without the rest of the snapshot (the biometry type, read on every
  /// canEvaluatePolicy). The default takes the snapshot.
  var availableNow: Bool { get }
  /// `state(for: owner)` as far as availability goes, without copying names or identities (read on
  /// every canEvaluatePolicy). The default takes the snapshot.
  func readiness(for owner: UInt32) -> SensorReadiness
  /// Whether `capture` calls `request.armed` itself once the sensor listens (fprintd's driver, at
  /// VerifyStart's answer). When false (the default), the broker takes the sensor as listening when
  /// it asks for the capture: a simulated sensor listens at once, and an exec driver is sent its
  /// `CAPTURE` line then.
  var reportsArming: Bool { get }
  /// Waits for one presentation by `request.owner` and reports what was seen. Runs on the caller's executor.
  nonisolated(nonsending) func capture(_ request: CaptureRequest) async throws -> CaptureEvent
  /// Enrolls an identity for `owner` (an administrator action); returns that owner's enrolled identities.
  func enroll(_ identity: String, for owner: UInt32) -> [String]
  /// Removes one of `owner`'s identities; returns that owner's enrolled identities.
  func unenroll(_ identity: String, for owner: UInt32) -> [String]
}

extension SensorDriver {
  /// false: the broker takes the sensor as listening when it asks for a capture.
  public var reportsArming: Bool { false }

  /// `state(for: 0).available`.
  public var availableNow: Bool { state(for: 0).available }

  /// `SensorReadiness(state(for: owner))`.
  public func readiness(for owner: UInt32) -> SensorReadiness {
    SensorReadiness(state(for: owner))
  }
}

/// How the daemon leads a driver's life (docs/drivers.md, "A driver's life"): it builds the driver
/// from the configuration (inert: no process, thread or connection yet), starts it, offers it every
/// reloaded configuration, and stops it when the configuration drops it or the daemon exits. The
/// daemon never looks at a driver's concrete type to do so.
///
/// Implementation requirements:
/// - `start()` is idempotent and returns without waiting for the driver to become ready (until then
///   `state(for:)` says unavailable, or what it knows without waiting).
/// - `reload(_:)` only compares: it neither starts the successor nor changes this driver.
/// - `stop()` is idempotent; after it a waiting capture and every later capture throw
///   `SensorFailure(.driverNotReady)`, `state(for:)` says unavailable, and `start()` does nothing.
public protocol DriverLifecycle: AnyObject, Sendable {
  /// Begins serving: an out-of-process driver spawns its program, fprintd's driver connects to the
  /// bus; a simulated one has nothing to start.
  func start()
  /// Offered `successor`, the driver a reloaded configuration describes for the same sensor name
  /// (built, not started): `.kept` when this running driver serves that setup as it is and stays in
  /// its place, with what it gathered since (enrolled sets, a script, its process, its bus
  /// connection); `.replaced` when the daemon is to start `successor` and stop this one.
  func reload(_ successor: any SensorDriver) -> DriverReload
  /// Ends the driver and fails the capture waiting on it (see the requirements).
  func stop()
}

/// What a running driver answers when offered a reloaded configuration's driver.
public enum DriverReload: Sendable, Equatable {
  /// The running driver stays: the reloaded configuration describes it unchanged.
  case kept
  /// The new driver takes its place; the running one is stopped.
  case replaced
}

/// A driver whose behaviour can be scripted with the command language of docs/protocol.md, "The
/// script language".
public protocol ScriptableSensor: SensorDriver {
  /// Appends (or, with `replace`, replaces) queued commands; returns how many are queued afterwards.
  func script(_ commands: [ScriptCommand], replace: Bool) -> Int
  /// How many commands are queued.
  var queuedCommands: Int { get }
  /// Whether a capture now would get a scripted or default answer, rather than wait for a person.
  var hasScriptedInput: Bool { get }
  /// What a capture gets when the script is empty (MATCH, NOMATCH or WAIT).
  var defaultBehavior: ScriptCommand.DefaultBehavior { get }
  /// The queued commands as script lines, a typed passcode's digits masked.
  var queuedScript: [String] { get }
  /// Whether the script's next answer, after any `SLEEP`, is the person pressing Cancel or the
  /// fallback button: what a prompt that stopped trying to match waits for.
  var choiceIsScriptedNext: Bool { get }
}

/// The drivers of one daemon, by name, in configuration order. A value passed into the broker.
public struct SensorRegistry: Sendable {
  /// The drivers in order.
  public private(set) var drivers: [any SensorDriver]

  /// A registry of the given drivers (names must be unique).
  public init(_ drivers: [any SensorDriver] = []) { self.drivers = drivers }

  /// Adds a driver.
  public mutating func register(_ driver: any SensorDriver) { drivers.append(driver) }

  /// The driver with this name.
  public func driver(named name: String) -> (any SensorDriver)? {
    drivers.first { $0.name == name }
  }

  /// Starts every driver (those already running ignore it).
  public func start() {
    for driver in drivers { driver.start() }
  }

  /// The registry a reloaded configuration gets: each of `described`'s drivers (built, not started),
  /// or this registry's running driver of the same name when it says `.kept`.
  public func reloaded(_ described: SensorRegistry) -> SensorRegistry {
    SensorRegistry(
      described.drivers.map { successor in
        guard let running = driver(named: successor.name), running.reload(successor) == .kept
        else { return successor }
        return running
      })
  }

  /// Stops the drivers of this registry that `successor` does not hold (all of them without one).
  public func stopDrivers(notIn successor: SensorRegistry?) {
    for driver in drivers where !(successor?.drivers.contains { $0 === driver } ?? false) {
      driver.stop()
    }
  }

  /// The first driver of a kind matching the predicate.
  public func first(where predicate: (SensorKind) -> Bool) -> (any SensorDriver)? {
    drivers.first { predicate($0.kind) }
  }
}
