import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// A session's state is the broker's: bound to its executor and checked, not only commented
/// (issue 20). Read there it answers; read anywhere else it traps in debug builds.
@Suite struct SessionIsolationTests {
  @Test func theBrokerReadsAndChangesASessionsState() async {
    let harness = BrokerHarness()
    let client = await harness.connect(name: "first")
    let name = await harness.broker.named(client.session, "second")
    #expect(name == "second")
  }

  #if DEBUG
    @Test func readingASessionsStateOffTheBrokersExecutorTraps() async {
      await #expect(processExitsWith: .failure) {
        let harness = BrokerHarness()
        let client = await harness.connect(name: "first")
        _ = client.session.name
      }
    }
  #endif
}

extension Broker {
  /// Renames `session` on the broker's executor; returns the name it reads back.
  fileprivate func named(_ session: ClientSession, _ name: String) -> String {
    session.name = name
    return session.name
  }
}
