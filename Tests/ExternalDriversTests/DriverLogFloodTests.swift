import Foundation
import LocalAuthTestSupport
import Sensors
import Testing

@testable import ExternalDrivers

/// A driver cannot flood the daemon's log (issue 18): its `LOG` lines and its stderr share one budget,
/// per run and per second, and what is held back is reported as counted "N log lines suppressed" entries.
@Suite struct DriverLogFloodTests {
  @Test func theBudgetIsPerSecondAndPerRunAndCountsWhatItHoldsBack() {
    let start = ContinuousClock.now
    var budget = DriverLogBudget(now: start)
    let first = (0..<15).map { _ in budget.admit(now: start) }
    #expect(first.filter(\.log).count == DriverLogBudget.perSecond)
    #expect(first.allSatisfy { $0.reportSuppressed == nil })
    // The next second opens with one entry for the 5 held back.
    let next = budget.admit(now: start + .seconds(1))
    #expect(next.log && next.reportSuppressed == 5)
    var logged = DriverLogBudget.perSecond + 1
    var second = 1
    var spent = 0
    while logged < DriverLogBudget.perRun {
      second += 1
      for _ in 0..<DriverLogBudget.perSecond where logged < DriverLogBudget.perRun {
        let admission = budget.admit(now: start + .seconds(second))
        #expect(admission.log)
        if admission.runBudgetSpent { spent += 1 }
        logged += 1
      }
    }
    #expect(spent == 1, "the run's last place is announced once")
    // The run's budget is spent: nothing more is logged, and the count waits for the run's end.
    for later in 0..<30 {
      let admission = budget.admit(now: start + .seconds(100 + later))
      #expect(!admission.log && admission.reportSuppressed == nil)
    }
    #expect(budget.endRun(now: start + .seconds(200)) == 30)
    #expect(budget.endRun(now: start + .seconds(200)) == nil)
  }

  @Test func aDriverFloodingLOGAndStderrIsBoundedAndCounted() async throws {
    let harness = try DriverHarness()
    let flood = 4000
    let path = try harness.script(
      "flood.sh",
      """
      echo "HELLO 1"
      echo "ENROLLED 1000 alice-face"
      i=0
      while [ $i -lt \(flood) ]; do
        echo "LOG flood $i"
        echo "flood $i" >&2
        i=$((i + 1))
      done
      echo READY
      while read -r verb a rest; do
        case $verb in
          PING) echo "PONG $a" ;;
          CAPTURE) echo "MATCH $a alice-face" ;;
        esac
      done
      """)
    let sensor = harness.sensor([path])
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(try await sensor.capture(DriverHarness.request()) == .match(identity: "alice-face"))
    sensor.stop()
    func reported() -> Int {
      harness.journal.compactMap { line -> Int? in
        guard
          let range = line.range(of: " log lines suppressed")
            ?? line.range(
              of: " log line suppressed")
        else { return nil }
        return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
      }.reduce(0, +)
    }
    func logged() -> Int { harness.journal.filter { $0.contains("flood ") }.count }
    // Every flood line is either logged or counted, once the run's end reports the rest.
    #expect(await eventually { logged() + reported() == 2 * flood })
    #expect(logged() <= DriverLogBudget.perRun)
    #expect(logged() >= 1)
  }
}
