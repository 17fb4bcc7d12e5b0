import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// `monitor.event {event: "environment"}`: sent when what LAEnvironment shows changes, not otherwise.
@Suite struct EnvironmentAnnouncementTests {
  /// The "environment" monitor events a client received.
  func announcements(_ client: TestClient) -> Int {
    Self.announcements(in: client.recorder.received)
  }

  /// The "environment" monitor events among `messages`.
  static func announcements(in messages: [RecordingClient.Message]) -> Int {
    messages.filter {
      if case .notification(Notification.monitorEvent, let params) = $0 {
        return params["event"]?.stringValue == "environment"
      }
      return false
    }.count
  }

  @Test func anUnenrollmentIsAnnouncedAndAPlainSuccessIsNot() async {
    let harness = BrokerHarness(faceDefault: .match)
    let watcher = await harness.connect(uid: 1000, gid: 1000)
    let admin = await harness.connect()
    _ = await watcher.call(Method.brokerMonitor)
    _ = await watcher.evaluate()
    #expect(announcements(watcher) == 0)
    _ = await admin.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "alice"])
    #expect(await watcher.recorder.wait { Self.announcements(in: $0) == 1 })
    _ = await admin.call(Method.sensorsUnenroll, ["sensor": "face", "identity": "alice"])
    _ = await admin.call(Method.sensorsEnroll, ["sensor": "face", "identity": "alice"])
    #expect(await watcher.recorder.wait { Self.announcements(in: $0) == 2 })
  }
}
