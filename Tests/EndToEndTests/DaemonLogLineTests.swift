import Foundation
import LocalAuthTestSupport
import Testing

/// The daemon's lines on stderr say when they happened.
@Suite struct DaemonLogLineTests {
  @Test func everyStderrLineStartsWithItsLocalTime() throws {
    let daemon = try RunningDaemon(arguments: [], config: DaemonEvaluationTests.instantConfig)
    try daemon.start()
    _ = daemon.stop()
    let log = daemon.log()
    let lines = log.split(separator: "\n").filter { !$0.isEmpty }
    #expect(!lines.isEmpty)
    let stamped = #/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} localauthd: /#
    for line in lines {
      #expect(line.firstMatch(of: stamped) != nil, "no timestamp: \(line)")
    }
  }
}
