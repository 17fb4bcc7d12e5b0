import Glibc

/// A failed step of an end-to-end test, with its reason.
struct HostileError: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
  init(_ description: String) { self.description = description }
}

/// Monotonic seconds.
enum HostileClock {
  /// Now, in seconds since an arbitrary start (CLOCK_MONOTONIC).
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
