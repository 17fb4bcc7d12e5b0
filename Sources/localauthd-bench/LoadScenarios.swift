import Glibc

/// The closed-loop rows: throughput against the C floor, latency, and evaluations through the queue.
struct LoadScenarios {
  /// Starts the servers.
  let launcher: ServerLauncher
  /// Runs per figure (the median is reported).
  let runs: Int
  /// Seconds counted per run.
  let seconds: Double

  /// Runs the three closed-loop rows, alternating floor and daemon runs so drift hits both alike.
  func measure() throws(BenchError) -> [Measurement] {
    let (floor, floorSocket) = try launcher.startFloor()
    defer { floor.stop() }
    let (daemon, socket) = try launcher.startDaemon("load")
    defer { daemon.stop() }
    let (refusing, refusingSocket) = try launcher.startDaemon(
      "refusals", config: launcher.unenrolledConfigPath)
    defer { refusing.stop() }
    var refusalRates: [Double] = []
    var refusalCPU: [Double] = []
    var floorRates: [Double] = []
    var daemonRates: [Double] = []
    var floorCPU: [Double] = []
    var daemonCPU: [Double] = []
    var p50: [Double] = []
    var p99: [Double] = []
    var floorP99: [Double] = []
    var evaluationRates: [Double] = []
    var evaluationErrors = 0
    var disconnects = 0
    for _ in 0..<runs {
      let floorRun = try load(floorSocket, clients: 256, serverPID: floor.pid)
      floorRates.append(floorRun.rate)
      floorCPU.append(floorRun.serverMicrosecondsPerRequest ?? .nan)
      let daemonRun = try load(socket, clients: 256, serverPID: daemon.pid)
      daemonRates.append(daemonRun.rate)
      daemonCPU.append(daemonRun.serverMicrosecondsPerRequest ?? .nan)
      disconnects += daemonRun.disconnects
      let refusalRun = try load(refusingSocket, clients: 256, serverPID: refusing.pid)
      refusalRates.append(refusalRun.rate)
      refusalCPU.append(refusalRun.serverMicrosecondsPerRequest ?? .nan)
      disconnects += refusalRun.disconnects
      let latency = try load(socket, clients: 16, recordLatency: true)
      p50.append(Statistics.percentile(latency.latencies, 0.50) / 1000)
      p99.append(Statistics.percentile(latency.latencies, 0.99) / 1000)
      let floorLatency = try load(floorSocket, clients: 16, recordLatency: true)
      floorP99.append(Statistics.percentile(floorLatency.latencies, 0.99) / 1000)
      let evaluations = try load(socket, clients: 64, requests: [Requests.evaluate])
      evaluationRates.append(evaluations.rate)
      evaluationErrors += evaluations.errors
      disconnects += evaluations.disconnects
    }
    guard daemon.isRunning, refusing.isRunning else {
      throw BenchError("localauthd died under load; see \(launcher.logPath)")
    }
    let floorMedian = Statistics.median(floorRates)
    let ratios = zip(daemonRates, floorRates).map { $0 / $1 * 100 }
    let percentOfFloor = Statistics.median(daemonRates) / floorMedian * 100
    let cpuRatio = Statistics.median(daemonCPU) / Statistics.median(floorCPU)
    let refusalCPURatio = Statistics.median(refusalCPU) / Statistics.median(floorCPU)
    let p99Ratio = Statistics.median(p99) / Statistics.median(floorP99)
    return [
      Measurement(
        key: "canEvaluateThroughput", title: "canEvaluatePolicy round trips/s, 256 clients",
        samples: daemonRates,
        unit: "req/s", target: ">= 70% of the C floor (median of runs)",
        met: percentOfFloor >= 70,
        details: [
          ("floorRequestsPerSecond", floorMedian), ("percentOfFloor", percentOfFloor),
          ("percentOfFloorPerRun", Statistics.median(ratios)),
          ("disconnects", Double(disconnects)),
        ]),
      Measurement(
        key: "serverCPUPerRequest",
        title: "server CPU per canEvaluatePolicy, 256 clients (same runs)", samples: daemonCPU,
        unit: "µs", target: "<= 1.25x the C floor's", met: cpuRatio <= 1.25,
        details: [("floorMicroseconds", Statistics.median(floorCPU)), ("ratioToFloor", cpuRatio)]),
      Measurement(
        key: "serverCPUPerRefusal",
        title: "server CPU per canEvaluatePolicy refused (biometryNotEnrolled), 256 clients",
        samples: refusalCPU, unit: "µs", target: "<= 1.25x the C floor's",
        met: refusalCPURatio <= 1.25,
        details: [
          ("floorMicroseconds", Statistics.median(floorCPU)), ("ratioToFloor", refusalCPURatio),
          ("requestsPerSecond", Statistics.median(refusalRates)),
          ("percentOfFloor", Statistics.median(refusalRates) / floorMedian * 100),
        ]),
      Measurement(
        key: "floorThroughput", title: "C floor round trips/s, 256 clients", samples: floorRates,
        unit: "req/s",
        target: "reference", met: nil),
      Measurement(
        key: "latencyP50", title: "canEvaluatePolicy p50 latency, 16 clients", samples: p50,
        unit: "µs",
        target: "reference", met: nil),
      Measurement(
        key: "latencyP99", title: "canEvaluatePolicy p99 latency, 16 clients", samples: p99,
        unit: "µs",
        target: "<= 1.5x the C floor's p99", met: p99Ratio <= 1.5,
        details: [("floorP99", Statistics.median(floorP99)), ("ratioToFloor", p99Ratio)]),
      Measurement(
        key: "evaluationThroughput", title: "evaluatePolicy/s through the queue, 64 clients",
        samples: evaluationRates,
        unit: "eval/s", target: ">= 20000/s", met: Statistics.median(evaluationRates) >= 20_000,
        details: [("errorResponses", Double(evaluationErrors))]),
    ]
  }

  private func load(
    _ socket: String, clients: Int, requests: [[UInt8]] = [Requests.canEvaluate],
    recordLatency: Bool = false, serverPID: pid_t? = nil
  ) throws(BenchError) -> LoadResult {
    var plan = LoadPlan(path: socket, clients: clients)
    plan.serverPID = serverPID
    plan.requests = requests
    plan.seconds = seconds
    plan.recordLatency = recordLatency
    var driver = try LoadDriver(plan: plan)
    return try driver.run()
  }
}
