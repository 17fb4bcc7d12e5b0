import LocalAuthClientCore
import LocalAuthProtocol

/// The desktop prompt's registration as the user's prompt agent: for its logind session scope, or,
/// when it runs in no session (a test's Xvfb, a shell outside logind), for the user.
public enum PromptRegistration {
  /// Whether the daemon refused the session scope because the program is in no logind session.
  public static func isOutsideSession(_ error: any Error) -> Bool {
    guard let error = error as? RPCError else { return false }
    return error.code == .invalidParams && error.data["field"] == "scope"
  }

  /// Registers `agent` for `scope`, falling back from session to user scope outside a session;
  /// says which scope it got through `note`. A second agent for the scope is refused with the
  /// daemon's `agentExists`, worded as the terminal agent words it.
  public static func register(
    _ agent: LAPromptAgent, scope: PromptOptions.Scope, note: (String) -> Void
  ) async throws -> (
    registration: LAAgentRegistration, events: AsyncStream<LAAgentEvent>, scope: PromptOptions.Scope
  ) {
    do {
      switch scope {
      case .user:
        let (registration, events) = try await agent.register(scope: .user)
        return (registration, events, .user)
      case .session:
        do {
          let (registration, events) = try await agent.register(scope: .session)
          return (registration, events, .session)
        } catch  where isOutsideSession(error) {
          note("not in a logind session: showing every prompt of the user (scope user)")
          let (registration, events) = try await agent.register(scope: .user)
          return (registration, events, .user)
        }
      }
    } catch let error as RPCError where LAPromptAgent.isAgentExists(error) {
      throw LAPromptAgent.agentExists(error)
    }
  }
}
