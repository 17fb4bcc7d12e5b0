import Foundation

/// The one scale of every test's waits: each deadline a test waits on (`eventually`, a daemon's
/// start and exit, a line client's read, a recording client's wait) is multiplied by
/// `LOCALAUTHD_TEST_TIMEOUT_SCALE` (default 1; a loaded or emulated machine sets 3 or 10).
/// docs/hacking.md, "Waiting in tests". Read once, from any thread.
public enum TestTimeout {
  /// The factor: LOCALAUTHD_TEST_TIMEOUT_SCALE, at least 1 (a scale below 1 would turn generous
  /// deadlines into flaky ones).
  public static let scale: Double = {
    let text = ProcessInfo.processInfo.environment["LOCALAUTHD_TEST_TIMEOUT_SCALE"] ?? ""
    return max(Double(text) ?? 1, 1)
  }()

  /// `duration` times the scale.
  public static func scaled(_ duration: Duration) -> Duration { duration * scale }

  /// `seconds` times the scale, in seconds.
  public static func seconds(_ seconds: Double) -> Double { seconds * scale }
}
