import Glibc

/// The client both hostile rows measure (16 connections doing canEvaluatePolicy, closed loop) and
/// the figures they take of it, per run: quiet; beside a busy thread on its CPU (no flood: the
/// control); and while flooded, run first on its CPU (the row's figure, which the target applies
/// to) and at the flood's priority (`MeasuringPriority`).
struct WellBehavedClient {
  /// The daemon's socket.
  let socket: String
  /// The daemon's process (its CPU time over each window is recorded).
  let daemonPID: pid_t
  /// Seconds counted per run.
  let seconds: Double

  /// The quiet p99s (µs), run first on the CPU and at the same priority as everything else.
  private(set) var quietFirst: [Double] = []
  private(set) var quiet: [Double] = []
  /// The p99s beside a busy thread (µs).
  private(set) var besideBusyThread: [Double] = []
  /// The flooded p99s (µs), per priority of the measuring client.
  private(set) var flooded: [MeasuringPriority: [Double]] = [:]
  /// The daemon's CPU use while flooded (% of one CPU), per priority of the measuring client.
  private(set) var daemonCPU: [MeasuringPriority: [Double]] = [:]

  /// A client of the daemon at `socket`.
  init(socket: String, daemonPID: pid_t, seconds: Double) {
    self.socket = socket
    self.daemonPID = daemonPID
    self.seconds = seconds
  }

  /// Measures the quiet p99 (run first, then at the same priority as the others), then the p99
  /// beside a busy thread.
  mutating func measureQuietAndControl() throws(BenchError) {
    quietFirst.append(try MeasuringPriority.first.run { () throws(BenchError) in try run() }.p99)
    quiet.append(try run().p99)
    let busy = BusyThread()
    defer { busy.join() }
    besideBusyThread.append(try run().p99)
  }

  /// Measures the p99 while a flood started by the caller goes on (for `2 × seconds` and the
  /// warm-ups): run first on its CPU, then at the flood's priority.
  mutating func measureFlooded() throws(BenchError) {
    for priority in [MeasuringPriority.first, .shared] {
      let sample = try priority.run { () throws(BenchError) in try run() }
      flooded[priority, default: []].append(sample.p99)
      daemonCPU[priority, default: []].append(sample.daemonCPUPercent)
    }
  }

  /// The row: the median p99 under the flood, run first, against the target, with the other
  /// figures as details (`extra` first).
  func measurement(key: String, title: String, extra: [(String, Double)] = []) -> Measurement {
    let figure = flooded[.first] ?? []
    return Measurement(
      key: key, title: title, samples: figure, unit: "µs", target: "< 5000 µs",
      met: Statistics.median(figure) < 5000,
      details: [("quietP99", Statistics.median(quietFirst))] + extra + [
        ("daemonCPUPercent", Statistics.median(daemonCPU[.first] ?? [])),
        ("p99SharingTheCPU", Statistics.median(flooded[.shared] ?? [])),
        ("quietP99SharingTheCPU", Statistics.median(quiet)),
        ("daemonCPUPercentSharingTheCPU", Statistics.median(daemonCPU[.shared] ?? [])),
        ("p99BesideBusyThreadNoFlood", Statistics.median(besideBusyThread)),
      ])
  }

  private func run() throws(BenchError) -> (p99: Double, daemonCPUPercent: Double) {
    var plan = LoadPlan(path: socket, clients: 16)
    plan.seconds = seconds
    plan.recordLatency = true
    plan.serverPID = daemonPID
    var driver = try LoadDriver(plan: plan)
    let result = try driver.run()
    let cpu = Double(result.serverCPUNanoseconds ?? 0) / 1e9 / max(result.seconds, 1e-9) * 100
    return (Statistics.percentile(result.latencies, 0.99) / 1000, cpu)
  }
}
