import Glibc
import Testing

@testable import Systemd

/// Part of `ProcessEnvironmentTests`, which runs one test at a time.
extension ProcessEnvironmentTests {
  @Suite struct ServiceNotifierTests {
    /// Clears every variable libsystemd's notify and watchdog calls read.
    private func clearEnvironment() {
      for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
    }

    @Test func unsupervisedNotifierIsSilentAndHasNoWatchdog() {
      clearEnvironment()
      let notifier = ServiceNotifier()
      #expect(!notifier.isSupervised)
      #expect(notifier.watchdogInterval == nil)
      notifier.ready(status: "ignored")
    }

    @Test func messagesArriveOnTheNotifySocket() throws {
      clearEnvironment()
      let socket = try NotifySocket()
      setenv("NOTIFY_SOCKET", socket.path, 1)
      defer { clearEnvironment() }
      let notifier = ServiceNotifier()
      #expect(notifier.isSupervised)

      notifier.ready(status: "0 clients, 0 evaluating, 0 queued")
      #expect(socket.receive() == "READY=1\nSTATUS=0 clients, 0 evaluating, 0 queued")

      notifier.status("1 clients,\n1 evaluating")
      #expect(socket.receive() == "STATUS=1 clients, 1 evaluating")

      notifier.watchdogPing()
      #expect(socket.receive() == "WATCHDOG=1")

      notifier.stopping(status: "shutting down")
      #expect(socket.receive() == "STOPPING=1\nSTATUS=shutting down")
    }

    @Test func reloadingCarriesTheMonotonicClock() throws {
      clearEnvironment()
      let socket = try NotifySocket()
      setenv("NOTIFY_SOCKET", socket.path, 1)
      defer { clearEnvironment() }
      var before = timespec()
      clock_gettime(CLOCK_MONOTONIC, &before)
      ServiceNotifier().reloading()
      var after = timespec()
      clock_gettime(CLOCK_MONOTONIC, &after)

      let message = try #require(socket.receive())
      let lines = message.split(separator: "\n")
      #expect(lines.first == "RELOADING=1")
      let stamp = try #require(
        lines.last.flatMap { $0.split(separator: "=").last }.flatMap { UInt64($0) })
      #expect(lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
      #expect(stamp >= UInt64(before.tv_sec) * 1_000_000 + UInt64(before.tv_nsec) / 1_000)
      #expect(stamp <= UInt64(after.tv_sec) * 1_000_000 + UInt64(after.tv_nsec) / 1_000)
    }

    /// sd_watchdog_enabled reports the full WATCHDOG_USEC; the daemon pings at half of it.
    @Test(arguments: [nil, "self"])
    func watchdogIntervalIsTheFullTimeout(pid: String?) {
      clearEnvironment()
      defer { clearEnvironment() }
      setenv("WATCHDOG_USEC", "400000", 1)
      if pid != nil { setenv("WATCHDOG_PID", String(getpid()), 1) }
      #expect(ServiceNotifier().watchdogInterval == .milliseconds(400))
    }

    @Test func watchdogForAnotherProcessIsDisabled() {
      clearEnvironment()
      defer { clearEnvironment() }
      setenv("WATCHDOG_USEC", "400000", 1)
      setenv("WATCHDOG_PID", "1", 1)
      #expect(ServiceNotifier().watchdogInterval == nil)
    }
  }
}
