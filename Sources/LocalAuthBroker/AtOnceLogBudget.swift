/// How many evaluations that end at once one uid may put in the log, one line each, per second.
///
/// An evaluation ends at once, with no prompt, when it is refused (no sensor enrolled, not
/// interactive, a full queue, …) or reuses an earlier success. A client can ask for these as fast as
/// it can write: without a bound each costs the event loop a log line (about half of a refused
/// evaluation's ~33,000 instructions) and, under journald's rate limit for the service, one user's
/// flood pushes other users' audit entries out of the journal. Past `perSecond` in a second, the
/// uid's lines are counted per outcome instead and reported as one entry once that second is over
/// (`dueReports`): every evaluation is still accounted for, in at most `perSecond` + 1 lines a
/// second per uid. Root (pam_localauthd's sudo and su) is not bounded. Evaluations that prompt
/// are always logged one by one: the queue bounds them. A value owned by the broker, used on its
/// executor only.
struct AtOnceLogBudget {
  /// The most lines one uid's evaluations that end at once may log in one second.
  static let perSecond = 20

  /// One uid's current second.
  private struct Window {
    var start: Duration
    var logged = 0
    /// The outcomes held back in this second, by name, in the order first seen.
    var suppressed: [(outcome: String, count: Int)] = []
  }

  private var windows: [UInt32: Window] = [:]
  /// When the earliest window holding suppressed lines ends (nil: none holds any).
  private var earliestDue: Duration?

  /// What the log owes for the second of `uid` that ended: how many of its evaluations that ended
  /// at once were not logged one by one, per outcome.
  struct Report: Equatable {
    /// The uid.
    var uid: UInt32
    /// The outcome names ("success", "biometryNotEnrolled", …) and their counts.
    var suppressed: [String: Int]
    /// Their total.
    var total: Int { suppressed.values.reduce(0, +) }
  }

  /// Whether an evaluation of `uid` that ended at once with `outcome` at `now` gets its own line;
  /// when not, it is counted for the uid's report.
  mutating func admit(uid: UInt32, outcome: String, now: Duration) -> Bool {
    if uid == 0 { return true }
    if windows.count >= Self.windowsKept { dropEnded(now: now) }
    var window = windows[uid] ?? Window(start: now)
    if now - window.start >= .seconds(1) && window.suppressed.isEmpty {
      window = Window(start: now)
    }
    defer { windows[uid] = window }
    if window.logged < Self.perSecond && window.suppressed.isEmpty {
      window.logged += 1
      return true
    }
    if let index = window.suppressed.firstIndex(where: { $0.outcome == outcome }) {
      window.suppressed[index].count += 1
    } else {
      window.suppressed.append((outcome, 1))
    }
    let due = window.start + .seconds(1)
    if earliestDue.map({ due < $0 }) ?? true { earliestDue = due }
    return false
  }

  /// Past this many uids' windows, those whose second ended with nothing held back are dropped
  /// (a window is kept only while it can still decide something).
  private static let windowsKept = 64

  private mutating func dropEnded(now: Duration) {
    windows = windows.filter { now - $0.value.start < .seconds(1) || !$0.value.suppressed.isEmpty }
  }

  /// The reports of every uid whose second with suppressed lines is over at `now`; those uids
  /// start afresh. Cheap when none is due (one comparison).
  mutating func dueReports(now: Duration) -> [Report] {
    guard let earliestDue, now >= earliestDue else { return [] }
    var reports: [Report] = []
    var nextDue: Duration?
    for (uid, window) in windows {
      let due = window.start + .seconds(1)
      if now >= due {
        windows[uid] = nil
        if !window.suppressed.isEmpty {
          reports.append(
            Report(
              uid: uid,
              suppressed: Dictionary(window.suppressed, uniquingKeysWith: +)))
        }
      } else if !window.suppressed.isEmpty {
        nextDue = nextDue.map { min($0, due) } ?? due
      }
    }
    self.earliestDue = nextDue
    return reports.sorted { $0.uid < $1.uid }
  }
}
