/// A biometric or credential source. The broker owns policy (attempts, lockout, fallback);
/// a driver only reports what the "hardware" saw.
///
/// Implementation requirements:
/// - `capture` returns one event per presentation; the broker calls it again for the next try.
/// - `capture` must end promptly when its task is cancelled, by throwing `CancellationError`,
///   without consuming input meant for a later capture and without leaking waiters.
/// - `state()` is cheap and never blocks; it may be called from any thread.
/// - Enrollment changes are visible in the next `state(for:)`.
/// - Enrolled identities belong to an owner (a Linux account, `SensorOwner`): `state(for:)` lists only that
///   owner's, and a capture for `CaptureRequest.owner` matches only that owner's identities.
/// - Drivers are registered by name in a `SensorRegistry` value; nothing is global.
public protocol SensorDriver: AnyObject, Sendable {
  /// The sensor's name.
  var name: String { get }
  /// The kind of hardware.
  var kind: SensorKind { get }
  /// A snapshot of availability and of the identities enrolled for `owner` (a uid).
  func state(for owner: UInt32) -> SensorState
  /// Waits for one presentation by `request.owner` and reports what was seen. Runs on the caller's executor.
  nonisolated(nonsending) func capture(_ request: CaptureRequest) async throws -> CaptureEvent
  /// Enrolls an identity for `owner` (an administrator action); returns that owner's enrolled identities.
  func enroll(_ identity: String, for owner: UInt32) -> [String]
  /// Removes one of `owner`'s identities; returns that owner's enrolled identities.
  func unenroll(_ identity: String, for owner: UInt32) -> [String]
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

  /// The first driver of a kind matching the predicate.
  public func first(where predicate: (SensorKind) -> Bool) -> (any SensorDriver)? {
    drivers.first { predicate($0.kind) }
  }
}
