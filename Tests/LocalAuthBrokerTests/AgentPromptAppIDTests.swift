import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// The app id in `agent.prompt` (issue 34): shown as the daemon knows it, bound (verified against
/// the client's executable) or only declared, never promoted from the client's word.
@Suite struct AgentPromptAppIDTests {
  static let alice: UInt32 = 64_101

  /// A per-user broker binding `com.example.vault` to /usr/bin/vault; alice has a passcode and an
  /// agent, so an app evaluation of hers shows a prompt.
  func setUp() async -> (BrokerHarness, TestClient) {
    var configuration = BrokerConfiguration()
    configuration.appIDBindings = ["com.example.vault": ["/usr/bin/vault"]]
    let harness = BrokerHarness(configuration: configuration, enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, name: "agent")
    #expect(await agent.call(Method.agentRegister)?.object?["agent"] != nil)
    return (harness, agent)
  }

  /// The `client` object of the prompt an app of alice's gets shown, after its hello (`client`
  /// param; nil: no hello at all), from `executable`.
  func promptedClient(hello: JSONObject?, executable: String?) async -> JSONObject? {
    let (harness, agent) = await setUp()
    let recorder = RecordingClient()
    let session = await harness.broker.connect(
      peer: PeerIdentity(
        pid: 900, uid: Self.alice, gid: Self.alice, executable: executable),
      name: "vault", channel: recorder)
    let app = TestClient(harness: harness, session: session, recorder: recorder)
    if let hello {
      #expect(
        await app.call(Method.hello, ["client": .object(hello), "protocol": 1])?.object != nil)
    }
    let (_, immediate) = await app.startEvaluation(.deviceOwnerAuthentication)
    #expect(immediate == nil)
    _ = await agent.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPrompt, _) = $0 {
          return true
        } else {
          return false
        }
      }
    }
    let prompt = agent.recorder.notifications(Notification.agentPrompt).first
    #expect(prompt != nil, "the prompt")
    return prompt?["client"]?.objectValue
  }

  @Test func aBoundAppIDIsShownAsVerified() async {
    let client = await promptedClient(
      hello: ["name": "Vault", "appID": "com.example.vault"], executable: "/usr/bin/vault")
    #expect(client?["appID"] == "com.example.vault")
    #expect(client?["appIDBound"] == true)
  }

  @Test func anUnboundAppIDIsShownAsDeclaredOnly() async {
    let client = await promptedClient(
      hello: ["name": "Vault", "appID": "com.example.other"], executable: "/tmp/anything")
    #expect(client?["appID"] == "com.example.other")
    #expect(client?["appIDBound"] == false)
  }

  @Test func noAppIDIsShownWhenTheClientDeclaredNone() async {
    // No hello: the connection's default app id (uid-N) is the daemon's bookkeeping, not an app's.
    let silent = await promptedClient(hello: nil, executable: nil)
    #expect(silent?["appID"] == nil)
    #expect(silent?["appIDBound"] == nil)
    #expect(silent?["pid"] == 900)
    // A hello without appID: the app id defaults to the name, which the prompt already shows.
    let named = await promptedClient(hello: ["name": "Vault"], executable: "/tmp/anything")
    #expect(named?["name"] == "Vault")
    #expect(named?["appID"] == nil)
  }

  @Test func theEventReadsBackWhatItWrites() {
    let event = AgentPromptEvent(
      requestID: "R", clientName: "Vault", clientPID: 9, clientUID: 1000, user: "alice",
      policy: "deviceOwnerAuthentication", localizedReason: "Unlock", sensor: "face",
      cancelTitle: "Cancel", fallbackTitle: nil, secret: "passcode",
      appID: AgentAppID(id: "com.example.vault", bound: true), sensorKind: "faceID",
      ssh: AgentSSHSubject(
        kind: .login, key: "laptop", host: "git.example.org", hostKey: "SHA256:x"))
    #expect(AgentPromptEvent(object: event.object) == event)
    let bare = AgentPromptEvent(
      requestID: "R", clientName: "Vault", clientPID: 9, clientUID: 1000, user: "alice",
      policy: "deviceOwnerAuthentication", localizedReason: "Unlock", sensor: nil,
      cancelTitle: "Cancel", fallbackTitle: nil, secret: "passcode")
    #expect(bare.object["client"]?.objectValue?["appID"] == nil)
    #expect(bare.object["ssh"] == nil && bare.object["sensorKind"] == nil)
    #expect(AgentPromptEvent(object: bare.object) == bare)
  }
}
