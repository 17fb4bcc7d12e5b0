import Sensors

/// The enrolled fingers fprintd reported per uid, with the serials this daemon gave them (a finger
/// enrolled again after a deletion gets a new serial, so `domainState` changes).
struct FprintdCache {
  private var entries: [UInt32: (available: Bool, fingers: [String], at: ContinuousClock.Instant)] =
    [:]
  private var serialOf: [UInt32: [String: Int]] = [:]
  private var nextSerial = 1
  /// How old an answer may be before a state read refreshes it in the background.
  static let staleAfter = Duration.seconds(1)
  /// The most uids remembered.
  static let maxOwners = 4096

  /// The cached answer and whether it should be refreshed; nil when never asked.
  func cached(_ uid: UInt32) -> ((available: Bool, fingers: [String]), Bool)? {
    guard let entry = entries[uid] else { return nil }
    return ((entry.available, entry.fingers), ContinuousClock.now - entry.at > Self.staleAfter)
  }

  /// Stores fprintd's answer for `uid`.
  mutating func store(_ uid: UInt32, _ answer: (available: Bool, fingers: [String])) {
    if entries[uid] == nil && entries.count >= Self.maxOwners { entries.removeAll() }
    entries[uid] = (answer.available, answer.fingers, .now)
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

  /// Marks every answer unavailable (fprintd left the bus).
  mutating func markUnavailable() {
    for uid in entries.keys { entries[uid]?.available = false }
  }

  /// The enrollments of `uid` for these fingers.
  func serials(for uid: UInt32, fingers: [String]) -> [Enrollment] {
    fingers.map { Enrollment(identity: $0, serial: serialOf[uid]?[$0] ?? 0) }
  }
}
