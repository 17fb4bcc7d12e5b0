import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// The broker's components on their own, fed values: what the `Scheduler` decides (start, wait,
/// preempt, hand the sensors on, shutdown) and what `Observability` counts and says to log.
@Suite struct BrokerComponentTests {
  static func evaluation(uid: UInt32, number: Int, _ id: String) -> Evaluation {
    EvaluationQueueTests.evaluation(EvaluationQueueTests.client(uid: uid, number: number), id)
  }

  /// The steps as "start id", "queued id at N", "preempt id: reason".
  static func spelled(_ steps: [SchedulerStep]) -> [String] {
    steps.map { step in
      switch step {
      case .start(let evaluation): "start \(evaluation.requestID)"
      case .queued(let evaluation, let position): "queued \(evaluation.requestID) at \(position)"
      case .preempt(let evaluation, let reason): "preempt \(evaluation.requestID): \(reason)"
      }
    }
  }

  @Test func theSchedulerStartsTheFirstQueuesTheRestAndHandsTheSensorsOn() {
    var scheduler = Scheduler()
    let first = Self.evaluation(uid: 1000, number: 1, "1")
    let second = Self.evaluation(uid: 2000, number: 2, "2")
    let third = Self.evaluation(uid: 3000, number: 3, "3")
    #expect(Self.spelled(scheduler.arrive(first, overlap: .queue)) == ["start 1"])
    #expect(Self.spelled(scheduler.arrive(second, overlap: .queue)) == ["queued 2 at 1"])
    #expect(Self.spelled(scheduler.arrive(third, overlap: .queue)) == ["queued 3 at 2"])
    #expect(scheduler.running === first && scheduler.evaluations.count == 3)
    #expect(scheduler.finished(second, wasRunning: false, wasQueued: true) == nil)
    #expect(scheduler.queue.count == 1, "the one that ended while waiting left the queue")
    #expect(scheduler.finished(first, wasRunning: true, wasQueued: false) === third)
    #expect(scheduler.running === third && scheduler.queue.isEmpty)
    #expect(scheduler.finished(third, wasRunning: true, wasQueued: false) == nil)
    #expect(scheduler.running == nil && scheduler.evaluations.isEmpty)
  }

  @Test func aSystemEvaluationPreemptsARunningAppEvaluationAndWaitsAheadOfApps() {
    var scheduler = Scheduler()
    let app = Self.evaluation(uid: 1000, number: 1, "app")
    let waiting = Self.evaluation(uid: 2000, number: 2, "waiting")
    let sudo = EvaluationQueueTests.evaluation(
      EvaluationQueueTests.client(uid: 0, number: 3), "sudo", system: true)
    let su = EvaluationQueueTests.evaluation(
      EvaluationQueueTests.client(uid: 0, number: 4), "su", system: true)
    _ = scheduler.arrive(app, overlap: .queue)
    _ = scheduler.arrive(waiting, overlap: .queue)
    #expect(
      Self.spelled(scheduler.arrive(sudo, overlap: .queue))
        == ["preempt app: systemAuthentication", "start sudo"])
    #expect(scheduler.running === sudo)
    #expect(
      Self.spelled(scheduler.arrive(su, overlap: .queue)) == ["queued su at 1"],
      "a running system evaluation is never preempted; the next waits ahead of apps")
    #expect(
      scheduler.finished(app, wasRunning: true, wasQueued: false) == nil,
      "the preempted one no longer holds the sensors")
    #expect(scheduler.finished(sudo, wasRunning: true, wasQueued: false) === su)
  }

  @Test func withOverlapPreemptAnAppEndsItsOwnUIDsRunningOneOnly() {
    var scheduler = Scheduler()
    let mine = Self.evaluation(uid: 1000, number: 1, "mine")
    let again = Self.evaluation(uid: 1000, number: 2, "again")
    let theirs = Self.evaluation(uid: 2000, number: 3, "theirs")
    _ = scheduler.arrive(mine, overlap: .preempt)
    #expect(
      Self.spelled(scheduler.arrive(again, overlap: .preempt))
        == ["preempt mine: canceledByAnotherAuthentication", "start again"])
    #expect(Self.spelled(scheduler.arrive(theirs, overlap: .preempt)) == ["queued theirs at 1"])
  }

  @Test func shutdownReturnsTheQueuedAndTheRunningEvaluationsToEnd() {
    var scheduler = Scheduler()
    let running = Self.evaluation(uid: 1000, number: 1, "r")
    let queued = Self.evaluation(uid: 2000, number: 2, "q")
    _ = scheduler.arrive(running, overlap: .queue)
    _ = scheduler.arrive(queued, overlap: .queue)
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

  @Test func anEndedEvaluationSaysWhatToLogAndTheHeldBackLinesComeFirst() {
    var observability = Observability()
    let refused = EvaluationResult(name: "queueFull", code: .queueFull, reason: nil)
    let start = Duration.seconds(50)
    let logged = (0..<(AtOnceLogBudget.perSecond + 2)).map { _ in
      observability.ended(refused, uid: 1000, atOnce: true, now: start).logsTheEvaluation
    }
    #expect(logged.filter { $0 }.count == AtOnceLogBudget.perSecond)
    #expect(logged.last == false, "past the budget, an at-once end is held back")
    let later = observability.ended(
      EvaluationResult(name: "success", code: nil, reason: nil), uid: 1000, atOnce: false,
      now: start + .seconds(2))
    #expect(later.logsTheEvaluation, "an evaluation that ran is always logged")
    #expect(later.heldBack.count == 1)
    #expect(later.heldBack.first?.hasSuffix(": 2 queueFull") == true)
    #expect(observability.outcomes == ["queueFull": AtOnceLogBudget.perSecond + 2, "success": 1])
  }
}
