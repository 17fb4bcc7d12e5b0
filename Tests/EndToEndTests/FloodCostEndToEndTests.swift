import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// What a flood costs everyone else, against the real daemon: store work runs below the event
/// loop. Each flood is still answered in full, with its errors.
@Suite(.serialized)
struct FloodCostEndToEndTests {
  @Test("The rights store's thread runs 10 nicer than the event loop, and the store still answers")
  func storeThreadRunsBelowTheLoop() throws {
    let daemon = try HostileDaemon(configuration: HostileStoreTests.configuration())
    try daemon.start()
    defer { daemon.stop() }
    let client = try HostileStoreTests.client(daemon)
    // The store's thread starts with the first store call.
    let created = try client.ok(Method.handoffCreate, ["payload": "AA==", "ttl": 60])
    #expect(created["handoff"]?.stringValue != nil)
    let nice = Self.threadNiceValues(of: daemon.pid)
    let loop = try #require(nice[daemon.pid], "no main thread in \(nice)")
    #expect(
      nice.values.contains(min(19, loop + 10)),
      "no thread at nice \(min(19, loop + 10)) (the loop's is \(loop)): \(nice)")
    #expect(
      try client.ok(Method.handoffList)["handoffs"]?.arrayValue?.count == 1,
      "the store still answers")
  }

  /// The nice value of each thread of `pid`, by thread id (/proc/PID/task/TID/stat, field 19).
  static func threadNiceValues(of pid: pid_t) -> [pid_t: Int] {
    let tasks = "/proc/\(pid)/task"
    var values: [pid_t: Int] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
      guard let tid = pid_t(name),
        let stat = try? String(contentsOfFile: "\(tasks)/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the name: field 3 (state) onwards; the nice value is field 19.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 16, let nice = Int(fields[16]) { values[tid] = nice }
    }
    return values
  }
}
