import Glibc

/// Wall-clock time for people: the daemon's stderr lines and `localauthctl doctor` say when
/// something happened in local time, not as milliseconds since start.
public enum WallClock {
  /// Milliseconds since 1970 (CLOCK_REALTIME).
  public static func nowMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
  }

  /// "2026-12-01 15:02:11.123" in local time.
  public static func format(milliseconds: Int) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return "\(milliseconds) ms" }
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
    let millis = milliseconds % 1000
    let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    let text = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text + "." + fraction
  }
}
