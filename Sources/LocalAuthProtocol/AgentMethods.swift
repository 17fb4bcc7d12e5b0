extension Method {
  /// Registers the connection as the prompt agent for its own uid.
  public static let agentRegister = "agent.register"
  /// Withdraws the connection's agent registration.
  public static let agentUnregister = "agent.unregister"
  /// The person's answer to a prompt: cancel, fallback, or a typed passcode.
  public static let agentRespond = "agent.respond"
  /// The prompt agents of the caller's uid (root: any user's, with `user`).
  public static let agentList = "agent.list"
}

extension Notification {
  /// To an agent: show this prompt (requestID, client, user, policy, localizedReason, sensor, titles).
  public static let agentPrompt = "agent.prompt"
  /// To an agent: feedback for the prompt it shows (no match, a retry reason, a passcode delay).
  public static let agentFeedback = "agent.feedback"
  /// To an agent: the prompt switches to the passcode; read one.
  public static let agentPasscode = "agent.passcode"
  /// To an agent: the prompt ended, with its result.
  public static let agentEnded = "agent.ended"
}
