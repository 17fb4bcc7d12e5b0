/// How an out-of-process driver is started and supervised (`[Sensor.NAME]` with `Kind=exec`).
public struct ExecDriverSettings: Sendable, Equatable {
  /// Exec=: the executable and its arguments (split on spaces; the first is an absolute path).
  public var command: [String]
  /// StartTimeoutMs=: how long the driver has from its start to `READY`.
  public var startTimeout: Duration = .seconds(10)
  /// PingIntervalMs=: how often the daemon pings a driver while a capture is in flight.
  public var pingInterval: Duration = .seconds(2)
  /// HangTimeoutMs=: how long a driver has to answer a ping before it is killed as hung.
  public var hangTimeout: Duration = .seconds(5)
  /// RestartDelayMs=: the first restart's delay; each further failure in a row doubles it.
  public var restartDelay: Duration = .milliseconds(100)
  /// RestartMaxDelayMs=: the longest restart delay.
  public var restartMaxDelay: Duration = .seconds(30)
  /// The longest line a driver may write, newline excluded.
  public var lineLimit = 1024

  /// Settings for a command with the default timeouts.
  public init(command: [String]) { self.command = command }

  /// The restart delay after `failures` failures in a row (1 for the first).
  public func restartDelay(afterFailures failures: Int) -> Duration {
    var delay = restartDelay
    var remaining = max(0, failures - 1)
    while remaining > 0 && delay < restartMaxDelay {
      delay = delay * 2
      remaining -= 1
    }
    return min(delay, restartMaxDelay)
  }
}
