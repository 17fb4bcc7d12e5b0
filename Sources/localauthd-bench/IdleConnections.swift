import CLocalAuthSystem
import Glibc

/// The idle-connection row: how many connections a fresh daemon holds, and the RSS each costs.
struct IdleConnections {
  /// Starts the daemon.
  let launcher: ServerLauncher
  /// Runs (a fresh daemon each).
  let runs: Int
  /// Connections to open.
  let count: Int

  /// Opens `count` connections per run; RSS per connection before and after one request on each.
  func measure() throws(BenchError) -> Measurement {
    var perConnection: [Double] = []
    var perUsedConnection: [Double] = []
    var held: [Double] = []
    for run in 0..<runs {
      let (daemon, socket) = try launcher.startDaemon("idle\(run)")
      defer { daemon.stop() }
      Clock.sleep(milliseconds: 100)
      guard let before = daemon.residentKiB else { throw BenchError("daemon gone") }
      var fds: [Int32] = []
      fds.reserveCapacity(count)
      defer { for fd in fds { close(fd) } }
      for _ in 0..<count {
        let fd = las_connect_unix(socket)
        guard fd >= 0 else { break }
        fds.append(fd)
      }
      var counted = 0
      let deadline = Clock.nanoseconds() + 10_000_000_000
      while Clock.nanoseconds() < deadline {
        counted = (RoundTrip.clientCount(socket) ?? 1) - 1
        if counted >= fds.count { break }
        Clock.sleep(milliseconds: 20)
      }
      guard let after = daemon.residentKiB else { throw BenchError("daemon gone") }
      held.append(Double(counted))
      perConnection.append(Double(after - before) * 1024 / Double(max(counted, 1)))
      for fd in fds {
        _ = Requests.canEvaluate.withUnsafeBytes {
          send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
      }
      var answered = 0
      for fd in fds where RoundTrip.ask(fd, []) != nil { answered += 1 }
      guard let afterUse = daemon.residentKiB else { throw BenchError("daemon gone") }
      perUsedConnection.append(Double(afterUse - before) * 1024 / Double(max(answered, 1)))
    }
    let medianHeld = Statistics.median(held)
    let medianBytes = Statistics.median(perConnection)
    return Measurement(
      key: "idleConnectionRSS", title: "RSS per idle connection, \(count) held",
      samples: perConnection, unit: "B/conn",
      target: "\(count) held, <= 150 B each",
      met: medianHeld >= Double(count) && medianBytes <= 150,
      details: [
        ("connectionsHeld", medianHeld),
        ("bytesPerConnectionAfterOneRequest", Statistics.median(perUsedConnection)),
      ])
  }
}
