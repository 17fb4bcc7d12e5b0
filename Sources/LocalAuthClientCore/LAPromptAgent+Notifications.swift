import LocalAuthProtocol

/// One `agent.*` notification as the daemon sent it (docs/protocol.md, "Notifications", to prompt
/// agents): for code that reads members `LAAgentEvent` does not carry, as the desktop prompt's
/// notifications do (`agent.prompt`'s `ssh`, `agent.waiting`, `agent.waitEnded`).
public struct LAAgentNotification: Sendable, Equatable {
  /// The notification's name, `agent.prompt` and the like.
  public var method: String
  /// Its params, untrusted text included (sanitize before showing).
  public var params: JSONObject

  /// A notification.
  public init(method: String, params: JSONObject) {
    self.method = method
    self.params = params
  }
}

extension LAPromptAgent {
  /// Every `agent.*` notification this connection receives, as sent, until the connection to the
  /// daemon goes away. Call it before `register(scope:)`, so that the first prompt is in it too;
  /// it connects if needed.
  public func notificationsAsSent() throws -> AsyncStream<LAAgentNotification> {
    try connection.connect()
    guard let generation = connection.currentGeneration else {
      throw ConnectionError(socketPath: connection.socketPath, errno: -107)  // -ENOTCONN
    }
    let (stream, continuation) = AsyncStream<LAAgentNotification>.makeStream()
    let key = connection.addAgentStream(
      AgentStream(generation: generation, notifications: continuation))
    let connection = self.connection
    continuation.onTermination = { _ in connection.removeAgentStream(key) }
    return stream
  }
}
