import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// One agent per scope (issue 18), as polkit: a later agent of the same user and scope is refused and
/// the first keeps every prompt; `agent.list` shows who serves.
@Suite struct AgentScopeTests {
  static let alice: UInt32 = 65_001
  static let bob: UInt32 = 65_002

  @Test func aSecondAgentForTheSameScopeIsRefusedAndTheFirstStillServes() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let first = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 3_001)
    #expect(await first.call(Method.agentRegister)?.object?["agent"] != nil)
    // Malware of alice tries to take her prompts over.
    let takeover = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 3_002)
    let refused = await takeover.call(Method.agentRegister, ["scope": "user"])
    #expect(refused?.code == .alreadyInProgress)
    if case .failure(let error) = refused {
      #expect(error.data["reason"] == "agentExists")
      #expect(error.data["pid"] == 3_001)
    }
    let app = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 3_003)
    let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
    _ = await first.recorder.wait { messages in
      messages.contains {
        if case .notification(Notification.agentPrompt, _) = $0 { return true }
        return false
      }
    }
    let requestID = first.recorder.notifications(Notification.agentPrompt).first?["requestID"]
    #expect(requestID != nil)
    #expect(takeover.recorder.notifications(Notification.agentPrompt).isEmpty)
    _ = await first.call(
      Method.agentRespond, ["requestID": requestID ?? .null, "action": "cancel"])
    #expect(await app.recorder.waitForResponse(tag: tag)?.code == .userCancel)
    // Once the first goes away, the scope is free.
    await harness.broker.disconnect(first.session)
    #expect(await takeover.call(Method.agentRegister)?.object?["agent"] != nil)
  }

  @Test func agentListShowsTheCallersAgentsAndRootsChoice() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let agent = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 3_101)
    _ = await agent.call(Method.agentRegister)
    let alice = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 3_102)
    let listed = await alice.call(Method.agentList)?.object
    let entries = listed?["agents"]?.arrayValue ?? []
    #expect(entries.count == 1)
    let entry = entries.first?.objectValue
    #expect(entry?["pid"] == 3_101)
    #expect(entry?["scope"] == "user")
    #expect((entry?["since"]?.intValue ?? 0) > 1_700_000_000, "seconds since the epoch")
    // bob sees only his own (none) and may not ask for alice's; root may.
    let bob = await harness.connect(uid: Self.bob, gid: Self.bob)
    #expect(await bob.call(Method.agentList)?.object?["agents"] == [])
    #expect(
      await bob.call(Method.agentList, ["user": .int(Int(Self.alice))])?.code == .permissionDenied)
    let root = await harness.connect()
    #expect(
      await root.call(Method.agentList, ["user": .int(Int(Self.alice))])?.object?["agents"]?
        .arrayValue?.count == 1)
  }

  /// The logind session is a fact the server hands over at accept: an agent for its own session
  /// shows the prompts of clients in that session only; one outside any session cannot register so.
  @Test func aSessionScopedAgentShowsItsSessionsPromptsOnly() async {
    let harness = BrokerHarness(enrolled: [], owners: .perUser)
    let root = await harness.connect()
    _ = await root.call(
      Method.sensorsSetPasscode, ["passcode": "1111", "user": .int(Int(Self.alice))])
    let general = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 4_001)
    let scoped = await harness.connect(
      uid: Self.alice, gid: Self.alice, pid: 4_002, loginSession: "7")
    #expect(await general.call(Method.agentRegister)?.object?["agent"] != nil)
    let registered = await scoped.call(Method.agentRegister, ["scope": "session"])
    #expect(registered?.object?["scope"]?.objectValue?["session"] == "7")
    let outside = await harness.connect(uid: Self.alice, gid: Self.alice, pid: 4_003)
    #expect(await outside.call(Method.agentRegister, ["scope": "session"])?.code == .invalidParams)
    for (pid, session, shower) in [
      (Int32(4_004), "7", scoped), (Int32(4_005), "8", general),
    ] {
      let app = await harness.connect(
        uid: Self.alice, gid: Self.alice, pid: pid, loginSession: session)
      let before = shower.recorder.notifications(Notification.agentPrompt).count
      let (tag, _) = await app.startEvaluation(.deviceOwnerAuthentication)
      _ = await shower.recorder.wait { messages in
        messages.filter {
          if case .notification(Notification.agentPrompt, _) = $0 { return true }
          return false
        }.count > before
      }
      let prompt = shower.recorder.notifications(Notification.agentPrompt).last
      #expect(prompt?["client"]?.objectValue?["pid"] == .int(Int(pid)))
      _ = await shower.call(
        Method.agentRespond, ["requestID": prompt?["requestID"] ?? .null, "action": "cancel"])
      #expect(await app.recorder.waitForResponse(tag: tag)?.code == .userCancel)
    }
    #expect(general.recorder.notifications(Notification.agentPrompt).count == 1)
    #expect(scoped.recorder.notifications(Notification.agentPrompt).count == 1)
  }
}
