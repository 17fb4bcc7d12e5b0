import Sensors

/// Everything an `ExecSensor` knows, behind its lock: the process, its phase, the enrolled sets it
/// announced, the captures waiting for it and the liveness ping.
struct ExecDriverState {
  /// Where the driver is in its life.
  enum Phase: Equatable {
    /// Not running; started again at the instant (the restart back-off).
    case down(restartAt: ContinuousClock.Instant)
    /// Started; must say `READY` before the deadline.
    case starting(deadline: ContinuousClock.Instant)
    /// Takes captures.
    case ready
  }

  var phase: Phase
  var process: DriverProcess?
  var sawHello = false
  var enrolled: [UInt32: [Enrollment]] = [:]
  var nextSerial = 1
  var captures: [UInt64: PendingCapture] = [:]
  var cancelled: Set<UInt64> = []
  var nextCaptureID: UInt64 = 1
  var ping: (number: UInt64, deadline: ContinuousClock.Instant)?
  var nextPingAt: ContinuousClock.Instant?
  var nextPingNumber: UInt64 = 1
  var failuresInARow = 0
  /// Whether `start()` ran the supervisor.
  var started = false
  var stopping = false
  /// A failure found outside the supervisor (a capture could not write): the supervisor kills for it.
  var killRequest: SensorFailure?

  /// The most owners whose enrolled sets a driver may announce.
  static let maxOwners = 4096

  /// Replaces an owner's enrolled set; identities new to it get new serials.
  mutating func setEnrolled(_ identities: [String], for uid: UInt32) -> Bool {
    let previous = enrolled[uid] ?? []
    if previous.isEmpty && !identities.isEmpty && enrolled.count >= Self.maxOwners { return false }
    var unique: [String] = []
    for identity in identities where !unique.contains(identity) { unique.append(identity) }
    let updated = unique.map { identity in
      if let kept = previous.first(where: { $0.identity == identity }) { return kept }
      defer { nextSerial += 1 }
      return Enrollment(identity: identity, serial: nextSerial)
    }
    enrolled[uid] = updated.isEmpty ? nil : updated
    return true
  }

  /// Takes every waiting capture out (the driver ended).
  mutating func takeCaptures() -> [PendingCapture] {
    let all = Array(captures.values)
    captures.removeAll()
    ping = nil
    nextPingAt = nil
    return all
  }
}

/// A capture waiting for the driver's answer.
struct PendingCapture {
  let owner: UInt32
  let continuation: CheckedContinuation<CaptureEvent, any Error>
}
