/// The bench's command line.
struct BenchOptions {
  /// --daemon PATH: the localauthd binary (default: next to this binary).
  var daemonPath: String
  /// --floor PATH: the C floor server binary.
  var floorPath = "bench/floor"
  /// --json PATH: where to write the results.
  var jsonPath = "bench/results.json"
  /// --runs N: runs per figure (median reported), at least 3 by default.
  var runs = 3
  /// --seconds S: counted seconds per closed-loop run.
  var seconds = 1.5
  /// --idle N: idle connections to hold.
  var idleConnections = 10_000
  /// --total N: requests of the RSS-growth run.
  var growthTotal = 1_000_000
  /// --server-cpu N: pin servers to this CPU with taskset (-1: no pinning).
  var serverCPU: Int? = 0
  /// --mix 0,1,…: the RSS-growth run uses only these entries of `Requests.mixed` (diagnosis).
  var mix: [Int]? = nil
  /// --reconnect N: connections of the RSS-growth run reconnect every N requests (0: never).
  var reconnectEvery = 5_000
  /// --only a,b: run only these rows (load, hostile, store, idle, activation, priority, growth).
  var only: Set<String> = ["load", "hostile", "store", "idle", "activation", "priority", "growth"]

  static let usage = """
    usage: localauthd-bench [--daemon PATH] [--floor PATH] [--json PATH] [--runs N] [--seconds S]
                            [--idle N] [--total N] [--server-cpu N|-1] [--only load,hostile,store,idle,activation,priority,growth]
                            [--mix I,J,…] [--reconnect N]
    """

  /// Parses the arguments (without the program name).
  static func parse(_ arguments: [String], programPath: String) throws(BenchError) -> BenchOptions {
    let directory = programPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    var options = BenchOptions(daemonPath: (directory.isEmpty ? "." : directory) + "/localauthd")
    var rest = arguments[...]
    func value() throws(BenchError) -> String {
      guard let next = rest.popFirst() else { throw BenchError(usage) }
      return next
    }
    func integer() throws(BenchError) -> Int {
      guard let number = Int(try value()) else { throw BenchError(usage) }
      return number
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--daemon": options.daemonPath = try value()
      case "--floor": options.floorPath = try value()
      case "--json": options.jsonPath = try value()
      case "--runs": options.runs = max(1, try integer())
      case "--seconds": options.seconds = Double(try value()) ?? options.seconds
      case "--idle": options.idleConnections = min(19_000, max(1, try integer()))
      case "--total": options.growthTotal = max(2_000, try integer())
      case "--server-cpu":
        let cpu = try integer()
        options.serverCPU = cpu < 0 ? nil : cpu
      case "--mix":
        options.mix = try value().split(separator: ",").compactMap { Int($0) }.filter {
          Requests.mixed.indices.contains($0)
        }
      case "--reconnect": options.reconnectEvery = max(0, try integer())
      case "--only": options.only = Set(try value().split(separator: ",").map(String.init))
      default: throw BenchError(usage)
      }
    }
    return options
  }
}
