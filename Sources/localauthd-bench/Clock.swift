import Glibc

/// Monotonic time in nanoseconds (clock_gettime CLOCK_MONOTONIC). Any thread.
enum Clock {
  /// Now, in nanoseconds since an arbitrary start.
  static func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Sleeps the calling thread for a number of milliseconds.
  static func sleep(milliseconds: Int) {
    var spec = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&spec, &remaining) != 0 && errno == EINTR { spec = remaining }
  }
}

/// Order statistics over samples.
enum Statistics {
  /// The median (mean of the two middle values for an even count); 0 for none.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The value below which `fraction` of the sorted samples lie (nearest rank); 0 for none.
  static func percentile(_ sorted: [UInt32], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = min(
      sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
    return Double(sorted[rank])
  }
}
