import LocalAuthProtocol

extension LAPromptAgent {
  /// Whether `error` is the daemon's refusal of a second agent for a scope (`-32001`, `agentExists`).
  public static func isAgentExists(_ error: any Error) -> Bool {
    (error as? RPCError).flatMap(AgentExistsRefusal.init) != nil
  }

  /// The refusal of a second agent for a scope, worded for the person: it names the agent that
  /// serves the scope. Every agent program (the terminal's, the desktop's) says it this way.
  public static func agentExists(_ error: RPCError) -> RPCError {
    let refusal = AgentExistsRefusal(error)
    let pid = refusal?.pid.map(String.init) ?? "?"
    let scope = refusal?.scopeKind ?? "user"
    var named = error
    named.message =
      "Another prompt agent (pid \(pid)) already serves your \(scope) prompts; stop it first (localauthctl agent --list shows it)."
    return named
  }
}
