import LocalAuthConcurrency
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// `MonitorSubscribers` on its own: who sees an evaluation's events, and environment
/// announcements only on a change since the last one (the first subscriber sets the baseline).
@Suite struct MonitorSubscribersTests {
  static func client(uid: UInt32, number: Int, admin: Bool = false) -> (
    ClientSession, RecordingClient
  ) {
    let channel = RecordingClient()
    let session = ClientSession(
      number: number, peer: PeerIdentity(pid: Int32(number), uid: uid, gid: uid),
      isAdmin: admin, name: "m\(number)", channel: channel, loop: LoopThread())
    return (session, channel)
  }

  @Test func eventsGoToAdminsTheClientsUidAndTheOwnersUid() {
    var monitors = MonitorSubscribers()
    #expect(monitors.isEmpty)
    let (admin, adminSeen) = Self.client(uid: 5000, number: 1, admin: true)
    let (same, sameSeen) = Self.client(uid: 1000, number: 2)
    let (owner, ownerSeen) = Self.client(uid: 0, number: 3)
    let (stranger, strangerSeen) = Self.client(uid: 2000, number: 4)
    for client in [admin, same, owner, stranger] { monitors.subscribe(client, environment: "e") }
    monitors.send(MonitorEvent(params: ["event": "started"]), clientUID: 1000, ownerUID: 0)
    #expect(adminSeen.notifications(Notification.monitorEvent).count == 1)
    #expect(sameSeen.notifications(Notification.monitorEvent).count == 1)
    #expect(ownerSeen.notifications(Notification.monitorEvent).count == 1)
    #expect(strangerSeen.notifications(Notification.monitorEvent).isEmpty)
    monitors.unsubscribe(same)
    monitors.send(MonitorEvent(params: ["event": "finished"]), clientUID: 1000, ownerUID: 0)
    #expect(sameSeen.notifications(Notification.monitorEvent).count == 1)
  }

  @Test func theEnvironmentIsAnnouncedOnlyWhenItChanged() {
    var monitors = MonitorSubscribers()
    let (first, seen) = Self.client(uid: 1000, number: 1)
    monitors.subscribe(first, environment: "a")
    #expect(first.monitoring)
    let unchanged = monitors.announce(environment: "a")
    let changed = monitors.announce(environment: "b")
    let again = monitors.announce(environment: "b")
    #expect(!unchanged && changed && !again)
    // A later subscriber does not reset the baseline.
    let (second, _) = Self.client(uid: 1000, number: 2)
    monitors.subscribe(second, environment: "c")
    let afterSecond = monitors.announce(environment: "b")
    #expect(!afterSecond)
    #expect(seen.notifications(Notification.monitorEvent) == [["event": "environment"]])
  }
}
