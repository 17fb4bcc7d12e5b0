import Glibc
import Testing

@testable import Systemd

/// Part of `ProcessEnvironmentTests`, which runs one test at a time.
extension ProcessEnvironmentTests {
  @Suite struct SocketActivationTests {
    @Test func notActivatedGivesNoDescriptors() {
      unsetenv("LISTEN_FDS")
      unsetenv("LISTEN_PID")
      #expect(SocketActivation.takeListenFileDescriptors().isEmpty)
    }

    @Test func descriptorsForAnotherProcessAreIgnored() {
      setenv("LISTEN_FDS", "1", 1)
      setenv("LISTEN_PID", "1", 1)
      setenv("LISTEN_FDNAMES", "localauthd", 1)
      #expect(SocketActivation.takeListenFileDescriptors().isEmpty)
      #expect(getenv("LISTEN_FDS") == nil)
      unsetenv("LISTEN_PID")
      unsetenv("LISTEN_FDNAMES")
    }

    /// Real fd passing: systemd-socket-activate execs the probe with LISTEN_FDS=1.
    @Test(
      .enabled(if: access(ListenProbeRun.activator, X_OK) == 0, "needs systemd-socket-activate"))
    func passedSocketIsTakenWithItsName() throws {
      let report = try ListenProbeRun.report(fdName: "localauthd")
      #expect(report == "localauthd=3 LISTEN_FDS unset\n")
    }
  }
}
