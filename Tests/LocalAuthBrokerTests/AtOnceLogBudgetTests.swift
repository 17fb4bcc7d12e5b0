import Testing

@testable import LocalAuthBroker

/// The log budget of evaluations that end at once: a uid's first lines of a second are logged, the
/// rest are counted and reported once that second is over, root is not bounded, and every
/// evaluation is accounted for.
@Suite struct AtOnceLogBudgetTests {
  let start: Duration = .seconds(100)

  @Test func aUIDPastItsBudgetIsCountedAndReportedOnceItsSecondIsOver() {
    var budget = AtOnceLogBudget()
    let limit = AtOnceLogBudget.perSecond
    var logged = 0
    for index in 0..<(limit + 30) {
      let outcome = index % 3 == 0 ? "success" : "biometryNotEnrolled"
      if budget.admit(uid: 65_534, outcome: outcome, now: start + .milliseconds(index)) {
        logged += 1
      }
    }
    #expect(logged == limit)
    let early = budget.dueReports(now: start + .milliseconds(999))
    #expect(early.isEmpty, "the second is not over")
    // Another uid has its own budget meanwhile.
    let otherLogged = budget.admit(uid: 1000, outcome: "success", now: start + .milliseconds(500))
    #expect(otherLogged)
    let reports = budget.dueReports(now: start + .seconds(1))
    #expect(reports.count == 1)
    #expect(reports.first?.uid == 65_534)
    #expect(reports.first?.total == 30)
    #expect(logged + (reports.first?.total ?? 0) == limit + 30, "every evaluation is accounted for")
    let again = budget.dueReports(now: start + .seconds(2))
    #expect(again.isEmpty, "reported once")
    let afresh = budget.admit(uid: 65_534, outcome: "success", now: start + .seconds(2))
    #expect(afresh, "the uid starts afresh")
  }

  @Test func whileHeldBackAUIDStaysHeldBackUntilItsReport() {
    var budget = AtOnceLogBudget()
    for index in 0...AtOnceLogBudget.perSecond {
      _ = budget.admit(uid: 7, outcome: "notInteractive", now: start + .milliseconds(index))
    }
    // Its second is over but not yet reported: the line is counted in the same report, so no
    // second's lines are logged before the count of the second before them.
    let logged = budget.admit(uid: 7, outcome: "notInteractive", now: start + .milliseconds(1500))
    #expect(!logged)
    let reports = budget.dueReports(now: start + .milliseconds(1500))
    #expect(reports == [AtOnceLogBudget.Report(uid: 7, suppressed: ["notInteractive": 2])])
  }

  @Test func rootIsNotBounded() {
    var budget = AtOnceLogBudget()
    var logged = 0
    for _ in 0..<(AtOnceLogBudget.perSecond * 5) {
      if budget.admit(uid: 0, outcome: "biometryNotEnrolled", now: start) { logged += 1 }
    }
    #expect(logged == AtOnceLogBudget.perSecond * 5)
    let reports = budget.dueReports(now: start + .seconds(5))
    #expect(reports.isEmpty)
  }
}
