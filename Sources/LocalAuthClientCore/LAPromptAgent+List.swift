import LocalAuthProtocol

/// One registered prompt agent, as `agent.list` shows it.
public struct LAAgentInfo: Sendable, Equatable {
  /// The agent's process.
  public var pid: Int
  /// Its scope: "user", "session" or "process".
  public var scope: String
  /// The logind session it serves (scope "session").
  public var session: String?
  /// The process it serves (scope "process").
  public var process: Int?
  /// When it registered, in seconds since the epoch.
  public var since: Int

  /// An entry of `agent.list`'s answer.
  public init(_ listed: ListedAgent) {
    pid = listed.pid
    scope = listed.scope
    session = listed.session
    process = listed.process
    since = listed.since
  }
}

extension LAPromptAgent {
  /// `agent.list`: the prompt agents of the caller's user, or of `user` (root and admins only).
  public func list(user: String? = nil) async throws -> [LAAgentInfo] {
    try await connection.agents(user: user)
  }
}

extension LocalAuthConnection {
  /// `agent.list`: the prompt agents of the caller's user, or of `user` (root and admins only).
  public func agents(user: String? = nil) async throws -> [LAAgentInfo] {
    let result = try await call(AgentListRequest.self, .init(user: user.map(JSONValue.string)))
    return result.agents.map(LAAgentInfo.init)
  }
}
