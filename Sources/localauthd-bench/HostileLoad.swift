import CLocalAuthSystem
import Glibc

/// Issue 9's figure: a well-behaved client's canEvaluatePolicy p99 while another local user floods
/// the daemon (queue, contexts with long titles, store requests, garbage), next to the same p99
/// with no attack, in the same run.
struct HostileLoad {
  /// Starts the servers.
  let launcher: ServerLauncher
  /// Runs per figure (the median is reported).
  let runs: Int
  /// Seconds counted per run.
  let seconds: Double
  /// This binary, re-run as the attacker (`--attack`).
  let benchPath: String

  /// Measures the quiet and the attacked p99 (`WellBehavedClient`), alternating.
  func measure() throws(BenchError) -> [Measurement] {
    let (daemon, socket) = try launcher.startDaemon("hostile")
    defer { daemon.stop() }
    // The attacker runs as nobody when the bench runs as root, so per-uid limits apply to it.
    chmod(launcher.workDirectory, 0o755)
    var client = WellBehavedClient(socket: socket, daemonPID: daemon.pid, seconds: seconds)
    for _ in 0..<runs {
      try client.measureQuietAndControl()
      let attacker = try ChildProcess(attackerCommand(socket))
      defer { attacker.stop() }
      usleep(200_000)
      try client.measureFlooded()
    }
    guard daemon.isRunning else {
      throw BenchError("localauthd died under attack; see \(launcher.logPath)")
    }
    return [
      client.measurement(
        key: "hostileP99",
        title:
          "canEvaluatePolicy p99, 16 clients (run first on their CPU), while another uid floods")
    ]
  }

  private func attackerCommand(_ socket: String) -> [String] {
    let attack = [benchPath, "--attack", socket, String(seconds * 2 + 2)]
    let setpriv = "/usr/bin/setpriv"
    guard getuid() == 0, access(setpriv, X_OK) == 0 else { return attack }
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + attack
  }
}

/// The attacker of `HostileLoad`: 16 connections pipelining evaluations, contexts with 1 KiB
/// titles, handoffs with 4 KiB payloads and garbage, reading and dropping whatever comes back.
/// Its lines are assembled from prebuilt bytes (only the ids change): it runs on the CPU of the
/// client that measures, and building them as Swift strings took that CPU from it.
enum Attacker {
  /// Attacks the socket for `seconds`.
  static func run(socket: String, seconds: Double) {
    let deadline = Clock.nanoseconds() + UInt64(seconds * 1e9)
    var connections = (0..<16).compactMap { _ -> Int32? in
      let fd = las_connect_unix(socket)
      guard fd >= 0 else { return nil }
      _ = las_set_nonblocking(fd, 1)
      return fd
    }
    let title = String(repeating: "t", count: 1000)
    let payload = String(repeating: "A", count: 4096)
    // Each request as the bytes after its id (all begin with `head` and the id).
    let head = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    let tails: [[UInt8]] = [
      #","method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"flood"}}"#,
      #","method":"context.create","params":{"localizedCancelTitle":"\#(title)"}}"#,
      #","method":"handoff.create","params":{"payload":"\#(payload)","ttl":1}}"#,
    ].map { Array($0.utf8) + [0x0A] }
    let garbage = Array("{garbage\n".utf8)
    var nextID = 0
    var sink = [UInt8](repeating: 0, count: 65536)
    var lines: [UInt8] = []
    lines.reserveCapacity(64 * 1024)
    while Clock.nanoseconds() < deadline && !connections.isEmpty {
      for (index, fd) in connections.enumerated().reversed() {
        lines.removeAll(keepingCapacity: true)
        for _ in 0..<8 {
          for tail in tails {
            nextID += 1
            lines.append(contentsOf: head)
            lines.append(contentsOf: String(nextID).utf8)
            lines.append(contentsOf: tail)
          }
          lines.append(contentsOf: garbage)
        }
        let sent = lines.withUnsafeBytes { las_send(fd, $0.baseAddress, $0.count) }
        while las_recv(fd, &sink, sink.count) > 0 {}
        if sent < 0 && sent != -Int(EAGAIN) {
          _ = close(fd)
          connections.remove(at: index)
        }
      }
      usleep(1000)
    }
    for fd in connections { _ = close(fd) }
  }
}
