import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// Reports service state to the service manager with `sd_notify(3)`.
///
/// Immutable after `init`, so one instance may be shared and used from any thread
/// or task. Every method is a no-op when the process is not supervised
/// (`NOTIFY_SOCKET` unset): libsystemd then sends nothing.
public final class ServiceNotifier: Sendable {
  /// Whether `NOTIFY_SOCKET` was set when the notifier was created.
  public let isSupervised: Bool

  /// The watchdog timeout the service manager enforces, from `sd_watchdog_enabled(0, &usec)`;
  /// `nil` when the watchdog is disabled (no `WATCHDOG_USEC`, or `WATCHDOG_PID` names
  /// another process).
  ///
  /// This is the full `WATCHDOG_USEC` value, the time after which the manager kills
  /// the service. The daemon pings at half this interval, as sd_watchdog_enabled(3)
  /// recommends.
  public let watchdogInterval: Duration?

  /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` through libsystemd.
  ///
  /// The environment is left in place (`unset_environment` is 0) because
  /// `sd_notify` reads `NOTIFY_SOCKET` on every call.
  public init() {
    isSupervised = getenv("NOTIFY_SOCKET") != nil
    var usec: UInt64 = 0
    if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
      watchdogInterval = .microseconds(Int64(clamping: usec))
    } else {
      watchdogInterval = nil
    }
  }

  /// Sends `READY=1` with a status line: startup (or a reload) is complete.
  public func ready(status: String) {
    send("READY=1\nSTATUS=\(Self.singleLine(status))")
  }

  /// Sends `RELOADING=1` with `MONOTONIC_USEC=` (CLOCK_MONOTONIC, µs), as systemd ≥ 253 requires.
  ///
  /// Follow with `ready(status:)` once the new configuration is in effect.
  public func reloading() {
    send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
  }

  /// Sends `STOPPING=1` with a status line: graceful shutdown has begun.
  public func stopping(status: String) {
    send("STOPPING=1\nSTATUS=\(Self.singleLine(status))")
  }

  /// Sends `STATUS=`: the one-line text `systemctl status` shows.
  public func status(_ text: String) {
    send("STATUS=\(Self.singleLine(text))")
  }

  /// Sends `WATCHDOG=1`; call at least every `watchdogInterval / 2`.
  public func watchdogPing() {
    send("WATCHDOG=1")
  }

  /// Wraps `sd_notify(0, state)`; errors are ignored: notification is best effort.
  private func send(_ state: String) {
    guard isSupervised else { return }
    _ = sd_notify(0, state)
  }

  /// Newlines would start a new `KEY=value` assignment: fold them into spaces.
  private static func singleLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }

  /// Reads `clock_gettime(CLOCK_MONOTONIC)` in microseconds.
  private static func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
  }
}
