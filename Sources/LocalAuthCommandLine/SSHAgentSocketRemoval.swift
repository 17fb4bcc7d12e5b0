import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Removes the socket file `ssh-agent --listen PATH` made when the agent is told to stop
/// (SIGTERM, SIGINT, SIGHUP), then exits 0: the next `--listen PATH` finds no stale file. A
/// socket systemd passed is systemd's, and is left alone. Its handlers run on a global queue.
struct SSHAgentSocketRemoval {
  /// The signals that stop the agent.
  static let stopSignals = [SIGTERM, SIGINT, SIGHUP]
  private let sources: [any DispatchSourceSignal]

  /// Watches for the stop signals from now on (signal(2) to SIG_IGN, a DispatchSource each).
  init(path: String) {
    sources = Self.stopSignals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        _ = unlink(path)
        exit(0)
      }
      source.resume()
      return source
    }
  }

  /// Stops watching (the agent never returns from serving, so this is for completeness).
  func cancel() {
    for source in sources { source.cancel() }
  }
}
