/// How many lines one exec driver may put in the daemon's log: its `LOG` lines and its stderr share
/// one budget, per run and per second, so a driver cannot flood the log (and, under journald's rate
/// limit, push out the daemon's own audit entries). What is held back is counted and reported as one
/// "N lines suppressed" entry: when the next second opens, or when the run ends.
struct DriverLogBudget {
  /// The most lines logged per driver run.
  static let perRun = 100
  /// The most lines logged in any one second.
  static let perSecond = 10

  private var loggedThisRun = 0
  private var windowStart: ContinuousClock.Instant
  private var loggedInWindow = 0
  /// Lines held back and not yet reported.
  private(set) var suppressed = 0

  /// A fresh budget for a run starting now.
  init(now: ContinuousClock.Instant = .now) { windowStart = now }

  /// What to do with one more line.
  struct Admission: Equatable {
    /// Whether to log the line.
    var log: Bool
    /// Lines held back before it, to report first (nil: nothing to report).
    var reportSuppressed: Int?
    /// Whether this line uses the run's last place (say that the rest waits for a restart).
    var runBudgetSpent: Bool
  }

  /// Decides about one line arriving at `now`.
  mutating func admit(now: ContinuousClock.Instant = .now) -> Admission {
    var report: Int?
    if now - windowStart >= .seconds(1) {
      windowStart = now
      loggedInWindow = 0
      if suppressed > 0 && loggedThisRun < Self.perRun {
        report = suppressed
        suppressed = 0
      }
    }
    guard loggedThisRun < Self.perRun, loggedInWindow < Self.perSecond else {
      suppressed += 1
      return Admission(log: false, reportSuppressed: report, runBudgetSpent: false)
    }
    loggedThisRun += 1
    loggedInWindow += 1
    return Admission(
      log: true, reportSuppressed: report, runBudgetSpent: loggedThisRun == Self.perRun)
  }

  /// The run ended: the count still unreported, if any (and the budget starts afresh).
  mutating func endRun(now: ContinuousClock.Instant = .now) -> Int? {
    let unreported = suppressed
    self = DriverLogBudget(now: now)
    return unreported > 0 ? unreported : nil
  }
}
