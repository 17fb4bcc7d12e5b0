import LocalAuthConcurrency
import Sensors

/// What a `FprintdSensor` touches on its loop only: the bus connection, the calls waiting for
/// fprintd, the capture holding the device and the captures and refreshes waiting for it. Held in
/// the sensor's `LoopBound` (checked in debug builds).
struct FprintdLoopState {
  var bus: OpaquePointer?
  var device: String?
  var calls: [UInt64: (FprintdReply) -> Void] = [:]
  var nextToken: UInt64 = 1
  /// The verify cycle holding the device; when it is released, the captures that waited begin.
  var active: ActiveVerify?
  var timeoutCheckScheduled = false
  /// The bus descriptor the loop watches (-1: none); kept, as a closed bus no longer names it.
  var watchedFD: Int32 = -1
  /// Whether GetDefaultDevice is in flight (at start, or when fprintd comes back on the bus).
  var lookingForDevice = false
  /// Work that waits for the device lookup; it goes on once fprintd answers (or cannot be reached).
  var afterDeviceLookup: [() -> Void] = []
  /// Captures that came while the last one was releasing the device; they begin once it is released.
  var afterRelease: [() -> Void] = []
  /// The owners whose enrolled set a state read asked to refresh.
  var refreshDue: Set<UInt32> = []
  /// Whether the timer that runs the due refreshes is set.
  var refreshArmed = false
  /// When the device was last released (or the sensor started).
  var idleSince = ContinuousClock.now
  /// Whether `start()` connected.
  var started = false
  /// Whether `stop()` ran: captures fail at once, nothing connects again.
  var stopped = false
  /// The captures begun and perhaps not finished: `stop()` fails them.
  var inFlight: [Resumption] = []
}

// The sensor's loop-only members, by their names, each an access to `onLoop` (loop thread only;
// traps elsewhere in debug builds).
extension FprintdSensor {
  var bus: OpaquePointer? {
    get { onLoop.value.bus }
    set { onLoop.value.bus = newValue }
  }
  var device: String? {
    get { onLoop.value.device }
    set { onLoop.value.device = newValue }
  }
  var calls: [UInt64: (FprintdReply) -> Void] {
    _read { yield onLoop.value.calls }
    _modify { yield &onLoop.value.calls }
  }
  var nextToken: UInt64 {
    get { onLoop.value.nextToken }
    set { onLoop.value.nextToken = newValue }
  }
  var active: ActiveVerify? {
    get { onLoop.value.active }
    set { onLoop.value.active = newValue }
  }
  var timeoutCheckScheduled: Bool {
    get { onLoop.value.timeoutCheckScheduled }
    set { onLoop.value.timeoutCheckScheduled = newValue }
  }
  var watchedFD: Int32 {
    get { onLoop.value.watchedFD }
    set { onLoop.value.watchedFD = newValue }
  }
  var lookingForDevice: Bool {
    get { onLoop.value.lookingForDevice }
    set { onLoop.value.lookingForDevice = newValue }
  }
  var afterDeviceLookup: [() -> Void] {
    _read { yield onLoop.value.afterDeviceLookup }
    _modify { yield &onLoop.value.afterDeviceLookup }
  }
  var afterRelease: [() -> Void] {
    _read { yield onLoop.value.afterRelease }
    _modify { yield &onLoop.value.afterRelease }
  }
  var refreshDue: Set<UInt32> {
    _read { yield onLoop.value.refreshDue }
    _modify { yield &onLoop.value.refreshDue }
  }
  var refreshArmed: Bool {
    get { onLoop.value.refreshArmed }
    set { onLoop.value.refreshArmed = newValue }
  }
  var idleSince: ContinuousClock.Instant {
    get { onLoop.value.idleSince }
    set { onLoop.value.idleSince = newValue }
  }
  var started: Bool {
    get { onLoop.value.started }
    set { onLoop.value.started = newValue }
  }
  var stopped: Bool {
    get { onLoop.value.stopped }
    set { onLoop.value.stopped = newValue }
  }
  var inFlight: [Resumption] {
    _read { yield onLoop.value.inFlight }
    _modify { yield &onLoop.value.inFlight }
  }
}
