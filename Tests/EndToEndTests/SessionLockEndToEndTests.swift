import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Issue 34 against the real daemon and a real bus: an SSH key's reuse window closes when logind
/// says the session locked, the machine sleeps or the session ended, and look-alike signals of
/// another uid (broadcast, sent to the daemon directly, after a forged NameOwnerChanged) change
/// nothing.
@Suite(.serialized, .enabled(if: FakeLogind.isRunnable))
struct SessionLockEndToEndTests {
  private let message: [UInt8] = Array("commit".utf8)

  /// Whether a signature passes without a capture: the face is scripted to cancel any capture.
  private func signsWithoutACapture(_ store: SSHKeyStore, _ daemon: RunningDaemon) async throws
    -> Bool
  {
    try await daemon.script("face", ["CANCEL"])
    do {
      _ = try await store.sign(message, with: "git")
      return true
    } catch let error as LAError where error.code == .userCancel {
      return false
    }
  }

  /// A fake logind with `sessions`, a daemon watching it (its start is checked), and an SSH key
  /// store on the daemon.
  private func watchedDaemon(_ sessions: [String: UInt32]) async throws -> (
    FakeLogind, RunningDaemon, SSHKeyStore
  ) {
    let logind = try FakeLogind(sessions: sessions)
    let daemon = try RunningDaemon(environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
    try daemon.start()
    #expect(await daemon.logShows("watching logind"), "\(daemon.logTail)")
    return (logind, daemon, SSHKeyStore(connection: daemon.connection()))
  }

  /// Opens the key's window: one signature with a match.
  private func openWindow(_ store: SSHKeyStore, _ daemon: RunningDaemon) async throws {
    try await daemon.script("face", ["MATCH"])
    _ = try await store.sign(message, with: "git")
  }

  @Test func logindsSignalsCloseTheWindowAndLookAlikesDoNot() async throws {
    // c1 is the test's own session (it runs as root); c2 another user's, for a lock seen last.
    let (logind, daemon, store) = try await watchedDaemon(["c1": getuid(), "c2": 65534])
    _ = try await store.create(name: "git", reuseSeconds: 600)
    try await openWindow(store, daemon)
    #expect(try await signsWithoutACapture(store, daemon), "the window is open")

    // Another uid can neither own logind's name nor speak for it.
    #expect(try logind.lookAlike(session: "c1") == ["refused", "SENT"])
    // A lock logind sends after the look-alikes were routed: once the daemon acted on it, it had
    // read them.
    try logind.send("lock c2")
    #expect(await daemon.logShows("reuse windows of uid 65534 closed: lock"))
    #expect(!daemon.log().contains("reuse windows of uid \(getuid()) closed"), "\(daemon.logTail)")
    #expect(!daemon.log().contains("reuse windows of every uid closed"), "\(daemon.logTail)")
    #expect(try await signsWithoutACapture(store, daemon), "look-alikes closed the window")

    // logind's own Lock of the session closes it: the next signature captures.
    try logind.send("lock c1")
    #expect(await daemon.logShows("reuse windows of uid \(getuid()) closed: lock"))
    #expect(try await !signsWithoutACapture(store, daemon), "a lock left the window open")

    // PrepareForSleep(true) closes every uid's; (false), the wake, opens nothing.
    try await openWindow(store, daemon)
    try logind.send("sleep")
    #expect(await daemon.logShows("reuse windows of every uid closed: sleep"))
    try logind.send("wake")
    #expect(try await !signsWithoutACapture(store, daemon), "a sleep left the window open")

    // A session that logind announces later, then removes: its user's windows close.
    try await openWindow(store, daemon)
    try logind.send("new c3 \(getuid())")
    // The daemon asks logind for c3's user as it hears of it; a lock of c2 after it says it has.
    try logind.send("lock c2")
    let bobsLock = "reuse windows of uid 65534 closed: lock"
    #expect(
      await eventually(within: .seconds(10)) {
        daemon.log().components(separatedBy: bobsLock).count == 3
      })
    try logind.send("remove c3")
    #expect(
      await daemon.logShows("reuse windows of uid \(getuid()) closed: logout"),
      "\(daemon.logTail)")
    #expect(try await !signsWithoutACapture(store, daemon), "a logout left the window open")
    // c1 is still the uid's: c3 was not its last session; c1's end is.
    #expect(!daemon.log().contains("the last logind session of uid \(getuid()) ended"))
    try logind.send("remove c1")
    #expect(
      await daemon.logShows("the last logind session of uid \(getuid()) ended"),
      "\(daemon.logTail)")
  }

  @Test func theWatchComesBackWhenTheBusDoes() async throws {
    let (logind, daemon, store) = try await watchedDaemon(["c1": getuid()])
    _ = try await store.create(name: "git", reuseSeconds: 600)
    try await openWindow(store, daemon)
    try logind.restart()
    #expect(await daemon.logShows("until the system bus answers"), "\(daemon.logTail)")
    #expect(
      await eventually(within: .seconds(20)) {
        daemon.log().components(separatedBy: "watching logind").count == 3
      }, "\(daemon.logTail)")
    try logind.send("lock c1")
    #expect(await daemon.logShows("reuse windows of uid \(getuid()) closed: lock"))
    #expect(try await !signsWithoutACapture(store, daemon), "a lock left the window open")
  }

  @Test func aKeyMadeToKeepItsWindowOnLockKeepsIt() async throws {
    let (logind, daemon, store) = try await watchedDaemon(["c1": getuid()])
    let key = try await store.create(name: "git", reuseSeconds: 600, keepOnLock: true)
    #expect(key.keepOnLock)
    try await openWindow(store, daemon)
    try logind.send("lock c1")
    #expect(
      await daemon.logShows("reuse windows of uid \(getuid()) closed: lock (0 were open)"))
    #expect(try await signsWithoutACapture(store, daemon))
  }
}
