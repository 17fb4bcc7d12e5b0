import Glibc
import LocalAuthProtocol

/// localauthd-bench: starts localauthd and a C floor server, drives them with closed-loop load,
/// prints the table of performance targets (docs/performance.md) and writes it as JSON.
func runBench() throws(BenchError) {
  let options = try BenchOptions.parse(
    Array(CommandLine.arguments.dropFirst()), programPath: CommandLine.arguments[0])
  signal(SIGPIPE, SIG_IGN)
  var limit = rlimit()
  getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
  limit.rlim_cur = limit.rlim_max
  setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
  let launcher = try ServerLauncher(
    daemonPath: options.daemonPath, floorPath: options.floorPath, serverCPU: options.serverCPU)
  defer { launcher.cleanUp() }
  var rows: [Measurement] = []
  func step(_ name: String, _ body: () throws(BenchError) -> [Measurement]) throws(BenchError) {
    guard options.only.contains(name) else { return }
    let start = Clock.nanoseconds()
    rows += try body()
    printError(
      "bench: \(name) done in \(Report.format(Double(Clock.nanoseconds() - start) / 1e9)) s")
  }
  try step("load") { () throws(BenchError) in
    try LoadScenarios(launcher: launcher, runs: options.runs, seconds: options.seconds).measure()
  }
  try step("hostile") { () throws(BenchError) in
    try HostileLoad(
      launcher: launcher, runs: options.runs, seconds: options.seconds,
      benchPath: CommandLine.arguments[0]
    ).measure()
  }
  try step("store") { () throws(BenchError) in
    try StoreFlood(launcher: launcher, runs: options.runs, seconds: options.seconds).measure()
  }
  try step("idle") { () throws(BenchError) in
    [
      try IdleConnections(launcher: launcher, runs: options.runs, count: options.idleConnections)
        .measure()
    ]
  }
  try step("activation") { () throws(BenchError) in
    [try SocketActivation(launcher: launcher, runs: max(options.runs, 5)).measure()]
  }
  try step("priority") { () throws(BenchError) in
    try SystemPriority(
      launcher: launcher, runs: max(options.runs, 5), benchPath: CommandLine.arguments[0]
    )
    .measure().map { [$0] } ?? []
  }
  try step("growth") { () throws(BenchError) in
    var growth = MemoryGrowth(launcher: launcher, runs: options.runs, total: options.growthTotal)
    if let mix = options.mix, !mix.isEmpty { growth.requests = mix.map { Requests.mixed[$0] } }
    growth.reconnectEvery = options.reconnectEvery
    return [try growth.measure()]
  }
  print(Report.table(rows), terminator: "")
  print(Report.summary(rows), terminator: "")
  let configuration: JSONObject = [
    "runs": .int(options.runs), "secondsPerRun": .number(JSONNumber(options.seconds)),
    "serverCPU": options.serverCPU.map { .int($0) } ?? .null,
    "cpus": .int(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))),
    "idleConnections": .int(options.idleConnections), "growthTotal": .int(options.growthTotal),
  ]
  try writeFile(options.jsonPath, Report.json(rows, configuration: configuration))
  printError("bench: wrote \(options.jsonPath)")
}

/// Writes a line to stderr.
func printError(_ text: String) {
  var line = text + "\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--attack" {
  Attacker.run(socket: arguments[2], seconds: Double(arguments[3]) ?? 5)
  exit(0)
}
if (5...6).contains(arguments.count), arguments[1] == "--drive" {
  // --drive SOCKET CLIENTS TOTAL [canEvaluate|evaluate|status]: a fixed number of
  // canEvaluatePolicy (or evaluatePolicy, or broker.status) round trips (for profiling under
  // callgrind or strace -c; see docs/performance.md).
  var plan = LoadPlan(path: arguments[2], clients: Int(arguments[3]) ?? 1)
  plan.totalResponses = Int(arguments[4]) ?? 10_000
  if arguments.count == 6 {
    switch arguments[5] {
    case "canEvaluate": plan.requests = [Requests.canEvaluate]
    case "evaluate": plan.requests = [Requests.evaluate]
    case "status": plan.requests = [Requests.status]
    default:
      printError(
        "localauthd-bench: --drive takes canEvaluate, evaluate or status, not \(arguments[5])")
      exit(2)
    }
  }
  do {
    var driver = try LoadDriver(plan: plan)
    let result = try driver.run()
    print("\(result.responses) responses, \(result.errors) errors in \(result.seconds) s")
  } catch {
    printError("localauthd-bench: \(error)")
    exit(1)
  }
  exit(0)
}
if arguments.count == 4, arguments[1] == "--park" {
  Parker.run(socket: arguments[2], seconds: Double(arguments[3]) ?? 60)
  exit(0)
}
do {
  try runBench()
} catch {
  printError("localauthd-bench: \(error)")
  exit(1)
}
