import Sensors

/// What this daemon knows of fprintd without asking it: the enrolled fingers it reported per uid
/// (with the serials this daemon gave them: a finger enrolled again after a deletion gets a new
/// serial, so `domainState` changes) and whether it could be reached at the last attempt. A state
/// read answers from here and never waits on the bus; it only says when a background refresh is due.
struct FprintdCache {
  private var entries: [UInt32: (available: Bool, fingers: [String], at: ContinuousClock.Instant)] =
    [:]
  private var serialOf: [UInt32: [String: Int]] = [:]
  private var refreshAsked: [UInt32: ContinuousClock.Instant] = [:]
  private var nextSerial = 1
  /// Whether fprintd owns its name on the bus now (it exits when idle and is activated again).
  var present = false
  /// Set by the sensor's `stop()`: unavailable, never refreshed again.
  var stopped = false
  /// False after a call to fprintd's name found nothing that can start it (not installed, no bus).
  private(set) var reachable = true
  private var unreachableSince = ContinuousClock.now
  /// How old an answer may be before a state read refreshes it (only while fprintd is on the bus).
  static let staleAfter = Duration.seconds(1)
  /// How often a state read may try to reach an unreachable fprintd again.
  static let retryUnreachableAfter = Duration.seconds(5)
  /// The most uids remembered.
  static let maxOwners = 4096

  /// What a state read says for `uid`: available, the fingers (nil: not asked yet, fprintd decides at
  /// the capture), and whether to refresh in the background (counted as asked from now on).
  mutating func answer(_ uid: UInt32, now: ContinuousClock.Instant = .now) -> (
    available: Bool, fingers: [String]?, refresh: Bool
  ) {
    let entry = entries[uid]
    if stopped { return (false, entry?.fingers ?? [], false) }
    let recentlyAsked = refreshAsked[uid].map { now - $0 < Self.staleAfter } ?? false
    let due: Bool
    if !reachable {
      due = now - unreachableSince > Self.retryUnreachableAfter
    } else if let entry {
      // While fprintd is gone (idle exit) the answer stays valid: prints change only through it,
      // and its return on the bus refreshes every owner. No call here may keep it alive.
      due = present && now - entry.at > Self.staleAfter
    } else {
      due = true
    }
    let refresh = due && !recentlyAsked
    if refresh {
      if refreshAsked.count >= Self.maxOwners { refreshAsked.removeAll() }
      refreshAsked[uid] = now
      if !reachable { unreachableSince = now }
    }
    guard reachable else { return (false, entry?.fingers ?? [], refresh) }
    guard let entry else { return (true, nil, refresh) }
    return (entry.available, entry.fingers, refresh)
  }

  /// The fingers last reported for `uid` (nil when never asked).
  func fingers(_ uid: UInt32) -> [String]? { entries[uid]?.fingers }

  /// Stores fprintd's answer for `uid`.
  mutating func store(_ uid: UInt32, _ answer: (available: Bool, fingers: [String])) {
    if entries[uid] == nil && entries.count >= Self.maxOwners { entries.removeAll() }
    entries[uid] = (answer.available, answer.fingers, .now)
    refreshAsked[uid] = nil
    if answer.available {
      let known = serialOf[uid] ?? [:]
      var updated: [String: Int] = [:]
      for finger in answer.fingers {
        if let serial = known[finger] {
          updated[finger] = serial
        } else {
          updated[finger] = nextSerial
          nextSerial += 1
        }
      }
      serialOf[uid] = updated
    }
  }

  /// The uids asked about so far.
  var owners: [UInt32] { Array(entries.keys) }

  /// Nothing can start fprintd: unavailable until a later attempt reaches it.
  mutating func markUnreachable() {
    if reachable { unreachableSince = .now }
    reachable = false
  }

  /// fprintd answered.
  mutating func markReachable() { reachable = true }

  /// The enrollments of `uid` for these fingers.
  func serials(for uid: UInt32, fingers: [String]) -> [Enrollment] {
    fingers.map { Enrollment(identity: $0, serial: serialOf[uid]?[$0] ?? 0) }
  }
}
