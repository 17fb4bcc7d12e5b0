import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// The broker's components on their own, fed values: the `Scheduler`'s books (in flight, queued,
/// running, the next to start, shutdown) and what `Observability` counts and reports.
@Suite struct BrokerComponentTests {
  static func evaluation(uid: UInt32, number: Int, _ id: String) -> Evaluation {
    EvaluationQueueTests.evaluation(EvaluationQueueTests.client(uid: uid, number: number), id)
  }

  @Test func theSchedulerKeepsTheBooksAndStartsTheNextOnlyWhenNoneRuns() {
    var scheduler = Scheduler()
    let first = Self.evaluation(uid: 1000, number: 1, "1")
    let second = Self.evaluation(uid: 2000, number: 2, "2")
    scheduler.admit(first)
    scheduler.admit(second)
    _ = scheduler.queue.append(first)
    _ = scheduler.queue.append(second)
    #expect(scheduler.evaluations.count == 2)
    #expect(scheduler.next() === first)
    scheduler.running = first
    #expect(scheduler.next() == nil, "one evaluation holds the sensors")
    scheduler.remove(first, wasQueued: false)
    scheduler.running = nil
    #expect(scheduler.evaluations["1"] == nil && scheduler.evaluations["2"] === second)
    scheduler.remove(second, wasQueued: true)
    #expect(scheduler.queue.isEmpty && scheduler.evaluations.isEmpty)
    #expect(scheduler.next() == nil)
  }

  @Test func shutdownReturnsTheQueuedAndTheRunningEvaluationsToEnd() {
    var scheduler = Scheduler()
    let running = Self.evaluation(uid: 1000, number: 1, "r")
    let queued = Self.evaluation(uid: 2000, number: 2, "q")
    scheduler.running = running
    _ = scheduler.queue.append(queued)
    #expect(!scheduler.shuttingDown)
    let ended = scheduler.shutDown()
    #expect(scheduler.shuttingDown)
    #expect(ended.map(\.requestID) == ["q", "r"])
  }

  @Test func observabilityCountsOutcomesAndReportsWhatTheBudgetHeldBack() {
    var observability = Observability()
    observability.count(EvaluationResult(name: "success", code: nil, reason: nil))
    observability.count(EvaluationResult(name: "success", code: nil, reason: nil))
    observability.count(
      EvaluationResult(name: "biometryNotEnrolled", code: .biometryNotEnrolled, reason: nil))
    #expect(observability.outcomes == ["success": 2, "biometryNotEnrolled": 1])
    let start = Duration.seconds(100)
    var admitted = 0
    for _ in 0..<(AtOnceLogBudget.perSecond + 3) {
      if observability.atOnceLogBudget.admit(uid: 1000, outcome: "queueFull", now: start) {
        admitted += 1
      }
    }
    #expect(admitted == AtOnceLogBudget.perSecond)
    #expect(observability.suppressedAtOnceLines(now: start) == [], "the second is not over")
    let lines = observability.suppressedAtOnceLines(now: start + .seconds(2))
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("uid 1000: 3 more evaluations ended at once") == true)
    #expect(lines.first?.hasSuffix(": 3 queueFull") == true)
  }
}
