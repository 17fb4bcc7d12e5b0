import CLocalAuthSystem
import Glibc

/// The socket-activation row: systemd-socket-activate holds the socket; the first connection starts a
/// cold localauthd; measured from connect+send to the first response line.
struct SocketActivation {
  /// Paths and configuration.
  let launcher: ServerLauncher
  /// Runs (a fresh process each).
  let runs: Int

  /// The first-answer latency of each run, in milliseconds.
  func measure() throws(BenchError) -> Measurement {
    var samples: [Double] = []
    for run in 0..<runs {
      let socket = launcher.workDirectory + "/activated\(run).sock"
      unlink(socket)
      let activator = try ChildProcess(
        launcher.pinned([
          "/usr/bin/systemd-socket-activate", "-l", socket, "--fdname=localauthd",
          launcher.daemonPath,
          "--stderr", "--config", launcher.configPath,
        ]), environment: ["STATE_DIRECTORY=\(launcher.stateDirectory)"], logPath: launcher.logPath)
      defer {
        activator.stop()
        unlink(socket)
      }
      var info = stat()
      let deadline = Clock.nanoseconds() + 5_000_000_000
      while stat(socket, &info) != 0 {
        guard Clock.nanoseconds() < deadline, activator.isRunning else {
          throw BenchError("systemd-socket-activate did not create \(socket)")
        }
        Clock.sleep(milliseconds: 2)
      }
      // Let the activator reach its wait for a connection; the daemon is not started yet.
      Clock.sleep(milliseconds: 50)
      let start = Clock.nanoseconds()
      let fd = las_connect_unix(socket)
      guard fd >= 0 else { throw BenchError("connect \(socket) failed") }
      defer { close(fd) }
      var timeout = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      guard let answer = RoundTrip.ask(fd, Requests.canEvaluate), answer.contains("\"result\"")
      else {
        throw BenchError("no answer from the socket-activated daemon; see \(launcher.logPath)")
      }
      samples.append(Double(Clock.nanoseconds() - start) / 1e6)
    }
    let median = Statistics.median(samples)
    return Measurement(
      key: "socketActivatedFirstAnswer", title: "socket-activated first answer (cold process)",
      samples: samples,
      unit: "ms", target: "< 30 ms", met: median < 30)
  }
}
