/// The RSS-growth row: a fresh daemon's RSS after 1,000 mixed requests and after 1,000,000.
struct MemoryGrowth {
  /// Starts the daemon.
  let launcher: ServerLauncher
  /// Runs (a fresh daemon each).
  let runs: Int
  /// Requests of the long run.
  let total: Int
  /// The request lines cycled through.
  var requests = Requests.mixed
  /// Reconnect every this many requests per connection (0: never).
  var reconnectEvery = 5_000

  /// Growth in percent per run; RSS figures and rates as details.
  func measure() throws(BenchError) -> Measurement {
    var growth: [Double] = []
    var early: [Double] = []
    var late: [Double] = []
    var rates: [Double] = []
    for run in 0..<runs {
      let (daemon, socket) = try launcher.startDaemon("growth\(run)")
      defer { daemon.stop() }
      _ = try load(socket, responses: 1_000)
      guard let first = daemon.residentKiB else { throw BenchError("daemon gone") }
      let long = try load(socket, responses: total - 1_000)
      guard let last = daemon.residentKiB, daemon.isRunning else {
        throw BenchError("localauthd died during the mixed run; see \(launcher.logPath)")
      }
      guard long.responses >= total - 1_000 else {
        throw BenchError(
          "mixed run stopped after \(long.responses) responses (\(long.disconnects) disconnects)")
      }
      early.append(Double(first))
      late.append(Double(last))
      rates.append(long.rate)
      growth.append(Double(last - first) / Double(first) * 100)
    }
    let median = Statistics.median(growth)
    return Measurement(
      key: "rssGrowth", title: "RSS growth, \(total) mixed requests vs 1,000", samples: growth,
      unit: "%",
      target: "< 10%", met: median < 10,
      details: [
        ("rssKiBAfter1000", Statistics.median(early)), ("rssKiBAfterAll", Statistics.median(late)),
        ("mixedRequestsPerSecond", Statistics.median(rates)),
      ])
  }

  private func load(_ socket: String, responses: Int) throws(BenchError) -> LoadResult {
    var plan = LoadPlan(path: socket, clients: 64)
    plan.requests = requests
    plan.totalResponses = responses
    plan.reconnectEvery = reconnectEvery > 0 ? reconnectEvery : nil
    var driver = try LoadDriver(plan: plan)
    return try driver.run()
  }
}
