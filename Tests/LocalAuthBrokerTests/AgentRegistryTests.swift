import LocalAuthConcurrency
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// `AgentRegistry` on its own: one agent per uid and scope, the per-uid limit, and which agent
/// shows a prompt (the most specific scope that fits the requester, the newest of a scope).
@Suite struct AgentRegistryTests {
  static let alice: UInt32 = 65_101
  static let bob: UInt32 = 65_102

  static func client(uid: UInt32, pid: Int32, session: String? = nil) -> ClientSession {
    ClientSession(
      number: Int(pid), peer: PeerIdentity(pid: pid, uid: uid, gid: uid, loginSession: session),
      isAdmin: false, name: "agent", channel: RecordingClient(), loop: LoopThread())
  }

  static func code(_ body: () throws(RPCError) -> Void) -> RPCError? {
    do throws(RPCError) {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func oneAgentPerScopeAndTheFirstStays() throws {
    var registry = AgentRegistry()
    let first = try registry.register(
      Self.client(uid: Self.alice, pid: 10), scope: .user, limit: 4, since: 1)
    let refused = Self.code { () throws(RPCError) in
      _ = try registry.register(
        Self.client(uid: Self.alice, pid: 11), scope: .user, limit: 4, since: 2)
    }
    #expect(refused?.code == .alreadyInProgress)
    #expect(refused?.data["reason"] == "agentExists")
    #expect(refused?.data["pid"] == .int(10))
    #expect(
      refused.flatMap(AgentExistsRefusal.init) == AgentExistsRefusal(pid: 10, scopeKind: "user"))
    #expect(registry.agents.map(\.id) == [first.id])
    // Another user's agent for the same scope is theirs.
    _ = try registry.register(Self.client(uid: Self.bob, pid: 12), scope: .user, limit: 4, since: 3)
    #expect(registry.connected(uid: Self.bob).count == 1)
  }

  @Test func aGoneAgentsScopeIsFreeAgain() throws {
    var registry = AgentRegistry()
    let gone = Self.client(uid: Self.alice, pid: 20)
    _ = try registry.register(gone, scope: .user, limit: 4, since: 1)
    gone.connected = false
    #expect(registry.connected(uid: Self.alice).isEmpty)
    let next = try registry.register(
      Self.client(uid: Self.alice, pid: 21), scope: .user, limit: 4, since: 2)
    #expect(next.number == 2)
  }

  @Test func theLimitCountsEveryAgentOfTheUser() throws {
    var registry = AgentRegistry()
    _ = try registry.register(
      Self.client(uid: Self.alice, pid: 30), scope: .user, limit: 2, since: 1)
    let process = try registry.register(
      Self.client(uid: Self.alice, pid: 31), scope: .process(99), limit: 2, since: 1)
    let refused = Self.code { () throws(RPCError) in
      _ = try registry.register(
        Self.client(uid: Self.alice, pid: 32), scope: .session("3"), limit: 2, since: 1)
    }
    #expect(refused?.code == .limitExceeded)
    registry.remove(process)
    _ = try registry.register(
      Self.client(uid: Self.alice, pid: 32), scope: .session("3"), limit: 2, since: 1)
    #expect(registry.agents.count == 2)
  }

  @Test func theMostSpecificFittingScopeShowsThePrompt() throws {
    var registry = AgentRegistry()
    let user = try registry.register(
      Self.client(uid: Self.alice, pid: 40), scope: .user, limit: 8, since: 1)
    let session = try registry.register(
      Self.client(uid: Self.alice, pid: 41), scope: .session("7"), limit: 8, since: 1)
    let process = try registry.register(
      Self.client(uid: Self.alice, pid: 42), scope: .process(500), limit: 8, since: 1)
    let inSession = PeerIdentity(pid: 600, uid: Self.alice, gid: 0, loginSession: "7")
    let theProcess = PeerIdentity(pid: 500, uid: Self.alice, gid: 0, loginSession: "7")
    let elsewhere = PeerIdentity(pid: 601, uid: Self.alice, gid: 0, loginSession: "8")
    #expect(registry.agent(owner: Self.alice, requester: theProcess) === process)
    #expect(registry.agent(owner: Self.alice, requester: inSession) === session)
    #expect(registry.agent(owner: Self.alice, requester: elsewhere) === user)
    // Only the owner's own agents show its prompts.
    #expect(registry.agent(owner: Self.bob, requester: inSession) == nil)
  }

  @Test func theRefusalNamesTheScopeTheServingAgentHolds() throws {
    var registry = AgentRegistry()
    _ = try registry.register(
      Self.client(uid: Self.alice, pid: 20), scope: .process(30), limit: 4, since: 1)
    let refused = Self.code { () throws(RPCError) in
      _ = try registry.register(
        Self.client(uid: Self.alice, pid: 21), scope: .process(30), limit: 4, since: 2)
    }
    #expect(
      refused.flatMap(AgentExistsRefusal.init) == AgentExistsRefusal(pid: 20, scopeKind: "process"))
    #expect(AgentExistsRefusal(RPCError(.alreadyInProgress)) == nil, "another refusal")
  }
}
