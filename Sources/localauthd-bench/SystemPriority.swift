import CLocalAuthSystem
import Glibc

/// Issue 18's figure: how long a user's biometric system evaluation (root acting for the user, as
/// pam_localauthd does for sudo) waits while another uid holds an app evaluation at the passcode
/// stage with a silent agent. Before issue 18 it waited for that prompt's PromptTimeoutSec (60 s).
struct SystemPriority {
  /// Starts the servers.
  let launcher: ServerLauncher
  /// Samples taken (each against a freshly parked prompt).
  let runs: Int
  /// This binary, re-run as the other uid (`--park`).
  let benchPath: String

  static let setpriv = "/usr/bin/setpriv"
  /// The other uid (nobody).
  static let parkerUID = 65_534

  /// Measures the delay, one sample per parked prompt; nil when the bench cannot switch users.
  func measure() throws(BenchError) -> Measurement? {
    guard getuid() == 0, access(Self.setpriv, X_OK) == 0 else {
      printError("bench: system-priority row skipped: needs root and setpriv")
      return nil
    }
    let (daemon, socket) = try launcher.startDaemon("priority")
    defer { daemon.stop() }
    chmod(launcher.workDirectory, 0o755)
    let root = try connect(socket)
    defer { close(root) }
    // nobody: a passcode and nothing enrolled, so its policy-2 evaluation goes to the passcode.
    _ = RoundTrip.ask(
      root,
      line(
        #"{"jsonrpc":"2.0","id":1,"method":"sensors.setPasscode","params":{"passcode":"9753","user":\#(Self.parkerUID)}}"#
      ))
    let parker = try ChildProcess([
      Self.setpriv, "--reuid=\(Self.parkerUID)", "--regid=\(Self.parkerUID)", "--clear-groups",
      benchPath, "--park", socket, String(runs * 10 + 20),
    ])
    defer { parker.stop() }
    var samples: [Double] = []
    var sudo = 10
    for _ in 0..<runs {
      guard waitForParkedPrompt(root) else {
        throw BenchError(
          "the other uid's prompt never reached the passcode; see \(launcher.logPath)")
      }
      sudo += 1
      let request = line(
        #"{"jsonrpc":"2.0","id":\#(sudo),"method":"context.evaluatePolicy","params":{"policy":2,"localizedReason":"sudo","user":0}}"#
      )
      let start = Clock.nanoseconds()
      let answer = RoundTrip.ask(root, request) ?? ""
      let elapsed = Double(Clock.nanoseconds() - start) / 1e6
      guard answer.contains(#""sensor":"face""#) else {
        throw BenchError("the system evaluation failed: \(answer)")
      }
      samples.append(elapsed)
    }
    // Each sample ended the other uid's parked prompt (systemCancel), or it measured nothing.
    let status = RoundTrip.ask(root, Requests.status) ?? ""
    let preempted = RoundTrip.integer(after: #""systemCancel":"#, in: status) ?? 0
    guard preempted >= runs else {
      throw BenchError("only \(preempted) of \(runs) parked prompts were preempted: \(status)")
    }
    let worst = samples.max() ?? 0
    return Measurement(
      key: "systemOverParkedPrompt",
      title: "sudo by face while another uid's prompt sits at the passcode (worst)",
      samples: samples, unit: "ms", target: "worst < 2000 ms", met: worst < 2000,
      details: [("worstMs", worst), ("parkedPromptsPreempted", Double(preempted))])
  }

  private func connect(_ socket: String) throws(BenchError) -> Int32 {
    let fd = las_connect_unix(socket)
    guard fd >= 0 else { throw BenchError("cannot connect to \(socket)") }
    return fd
  }

  /// Polls broker.status until an evaluation runs (the parker's) and gives it time to reach the
  /// passcode prompt.
  private func waitForParkedPrompt(_ root: Int32) -> Bool {
    for _ in 0..<1000 {
      if let answer = RoundTrip.ask(root, Requests.status),
        RoundTrip.integer(after: #""evaluating":"#, in: answer) == 1
      {
        Clock.sleep(milliseconds: 100)
        return true
      }
      Clock.sleep(milliseconds: 10)
    }
    return false
  }

  private func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }
}

/// The other uid of `SystemPriority`: a silent prompt agent, and an app whose policy-2 evaluation is
/// started again each time it ends, so a prompt always sits at the passcode stage.
enum Parker {
  /// Keeps a prompt parked on `socket` for `seconds`.
  static func run(socket: String, seconds: Double) {
    let deadline = Clock.nanoseconds() + UInt64(seconds * 1e9)
    let agent = las_connect_unix(socket)
    let app = las_connect_unix(socket)
    guard agent >= 0, app >= 0 else { return }
    _ = RoundTrip.ask(
      agent, Array(#"{"jsonrpc":"2.0","id":1,"method":"agent.register"}"#.utf8) + [0x0A])
    _ = las_set_nonblocking(agent, 1)
    var sink = [UInt8](repeating: 0, count: 65536)
    var id = 1
    while Clock.nanoseconds() < deadline {
      id += 1
      let request =
        Array(
          #"{"jsonrpc":"2.0","id":\#(id),"method":"context.evaluatePolicy","params":{"policy":2,"localizedReason":"hold"}}"#
            .utf8) + [0x0A]
      // The answer comes when the prompt ends (preempted, or after PromptTimeoutSec).
      guard RoundTrip.ask(app, request) != nil else { break }
      while las_recv(agent, &sink, sink.count) > 0 {}
    }
    close(agent)
    close(app)
  }
}
