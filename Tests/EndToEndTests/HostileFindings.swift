import Synchronization

/// Failures and counters collected by test threads, checked on the test's own thread at the end
/// (Swift Testing attributes issues to the test only from its own task).
final class HostileFindings: Sendable {
  private let failures = Mutex<[String]>([])
  private let counters = Mutex<[String: Int]>([:])

  /// Notes a failure (kept to the first 50).
  func fail(_ message: String) {
    failures.withLock { if $0.count < 50 { $0.append(message) } }
  }

  /// Adds to a named counter.
  func count(_ name: String, _ amount: Int = 1) {
    counters.withLock { $0[name, default: 0] += amount }
  }

  /// The failures noted so far.
  var all: [String] { failures.withLock { $0 } }

  /// A counter's value.
  subscript(name: String) -> Int { counters.withLock { $0[name] ?? 0 } }

  /// Every counter, for the test log.
  var summary: String {
    counters.withLock {
      $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
  }
}
