import LocalAuthProtocol

/// The prompt agents registered with the broker (docs/owners-and-agents.md): who registered for
/// which scope, the one-agent-per-scope rule and `MaxAgentsPerUser`, and which agent shows an
/// evaluation. Owns the agents and their numbering; a change to who may register or who shows a
/// prompt goes here. Value type, held by the Broker actor.
struct AgentRegistry {
  /// Registered agents, oldest first.
  private(set) var agents: [PromptAgent] = []
  private var lastNumber = 0

  /// Registers `client` as an agent for `scope`: alreadyInProgress when a connected agent of its
  /// uid already serves the scope (polkit's rule: the first is never silently replaced), the
  /// `MaxAgentsPerUser` limit when its uid has `limit` agents. `since` is seconds since the epoch.
  mutating func register(
    _ client: ClientSession, scope: PromptAgent.Scope, limit: Int, since: Int64
  ) throws(RPCError) -> PromptAgent {
    let uid = client.peer.uid
    if let serving = agents.first(where: {
      $0.uid == uid && $0.scope == scope && $0.connection.connected
    }) {
      throw RPCError(
        .alreadyInProgress,
        "A prompt agent already serves this scope (pid \(serving.pid)); stop it first.",
        data: ["reason": "agentExists", "pid": .int(Int(serving.pid)), "scope": scope.json])
    }
    guard agents.count(where: { $0.uid == uid }) < limit else {
      throw RPCError.limit("MaxAgentsPerUser", limit, "prompt agents of this user")
    }
    lastNumber += 1
    let agent = PromptAgent(
      id: "agent-\(lastNumber)", connection: client, scope: scope, number: lastNumber,
      since: since)
    agents.append(agent)
    return agent
  }

  /// Forgets an agent.
  mutating func remove(_ agent: PromptAgent) {
    agents.removeAll { $0 === agent }
  }

  /// The connected agents of a uid, oldest first (agent.list).
  func connected(uid: UInt32) -> [PromptAgent] {
    agents.filter { $0.uid == uid && $0.connection.connected }
  }

  /// The agent that shows an evaluation of `owner` asked for by `requester`: one of the owner's
  /// own connected agents, the most specific scope that fits the requesting client (its process,
  /// then its logind session, then the user), the newest of a scope.
  func agent(owner: UInt32, requester: PeerIdentity) -> PromptAgent? {
    let fitting = connected(uid: owner).filter { agent in
      switch agent.scope {
      case .user: return true
      case .process(let pid): return pid == requester.pid
      case .session(let id): return requester.loginSession == id
      }
    }
    return fitting.max { ($0.scope.rank, $0.number) < ($1.scope.rank, $1.number) }
  }
}
