/// `agent.register`'s refusal of a second agent for a scope another agent of the uid serves
/// (`-32001`, `data: {reason: "agentExists", pid, scope}`), read from the error. Immutable value.
public struct AgentExistsRefusal: Sendable, Equatable {
  /// The pid of the agent that serves the scope.
  public var pid: Int?
  /// The scope's kind: "user", "session" or "process".
  public var scopeKind: String

  /// A refusal naming the serving agent's pid and its scope's kind.
  public init(pid: Int?, scopeKind: String) {
    self.pid = pid
    self.scopeKind = scopeKind
  }

  /// The refusal `error` carries; nil when it is another error.
  public init?(_ error: RPCError) {
    guard error.data["reason"] == "agentExists" else { return nil }
    pid = error.data["pid"]?.intValue
    scopeKind = error.data["scope"]?.objectValue?["kind"]?.stringValue ?? "user"
  }
}
