import Glibc

/// The store-flood row (issue 9): a well-behaved client's canEvaluatePolicy p99 while 64 other
/// connections of the same machine keep the rights store saturated with `handoff.create` (each
/// a write transaction with fsync, or a quick storeBusy / tooManyHandoffs refusal). The target is
/// the one of the hostile row: a flood may cost the well-behaved client, never stall it.
struct StoreFlood {
  /// Starts the daemon.
  let launcher: ServerLauncher
  /// Runs (the median is reported).
  let runs: Int
  /// Seconds counted per run.
  let seconds: Double

  /// `handoff.create {payload: 1 KiB, ttl: 1}`.
  static let create: [UInt8] =
    Array(
      (#"{"jsonrpc":"2.0","id":4,"method":"handoff.create","params":{"payload":""#
        + String(repeating: "QUJD", count: 342) + #"","ttl":1}}"#).utf8) + [0x0A]

  /// Measures, alternating quiet and flooded runs of the same well-behaved client
  /// (`WellBehavedClient`).
  func measure() throws(BenchError) -> [Measurement] {
    let (daemon, socket) = try launcher.startDaemon("store")
    defer { daemon.stop() }
    var client = WellBehavedClient(socket: socket, daemonPID: daemon.pid, seconds: seconds)
    var floodRates: [Double] = []
    var floodRefused: [Double] = []
    for _ in 0..<runs {
      try client.measureQuietAndControl()
      var floodPlan = LoadPlan(path: socket, clients: 64)
      floodPlan.requests = [Self.create]
      floodPlan.warmupSeconds = 0.2
      floodPlan.seconds = seconds * 2 + 1
      let flood = BackgroundLoad(floodPlan)
      usleep(200_000)  // the flood reaches its limits first
      let measured = Result { () throws(BenchError) in try client.measureFlooded() }
      let result = try flood.join()
      try measured.get()
      floodRates.append(result.rate)
      floodRefused.append(
        result.responses > 0 ? Double(result.errors) / Double(result.responses) * 100 : 0)
    }
    guard daemon.isRunning else {
      throw BenchError("localauthd died under a store flood; see \(launcher.logPath)")
    }
    return [
      client.measurement(
        key: "latencyP99UnderStoreFlood",
        title: "canEvaluatePolicy p99, 16 clients (run first on their CPU), "
          + "64 others flooding handoff.create",
        extra: [
          ("floodRequestsPerSecond", Statistics.median(floodRates)),
          ("floodPercentRefused", Statistics.median(floodRefused)),
        ])
    ]
  }
}

/// A load run on a thread of its own; `join` waits for it and returns its figures.
/// `@unchecked Sendable`: `outcome` is written by the load thread before it ends and read only
/// after pthread_join.
final class BackgroundLoad: @unchecked Sendable {
  // `outcome` is written by the load thread before it ends and read only after pthread_join.
  private var outcome: Result<LoadResult, BenchError> = .failure(BenchError("not run"))
  private let plan: LoadPlan
  private var thread = pthread_t()

  /// Starts the run.
  init(_ plan: LoadPlan) {
    self.plan = plan
    let unmanaged = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let load = Unmanaged<BackgroundLoad>.fromOpaque(raw!).takeRetainedValue()
        load.outcome = Result { () throws(BenchError) -> LoadResult in
          var driver = try LoadDriver(plan: load.plan)
          return try driver.run()
        }
        return nil
      }, unmanaged)
  }

  /// Waits for the run to end.
  func join() throws(BenchError) -> LoadResult {
    pthread_join(thread, nil)
    return try outcome.get()
  }
}
