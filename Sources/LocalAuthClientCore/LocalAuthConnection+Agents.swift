import LocalAuthProtocol

/// One `LAPromptAgent` stream on a socket: its events, or the agent notifications as sent.
struct AgentStream {
  /// The socket generation the agent registered on; the stream ends when that socket goes away.
  var generation: Int
  /// Where the events go (`LAPromptAgent.register`).
  var events: AsyncStream<LAAgentEvent>.Continuation?
  /// Where the notifications as sent go (`LAPromptAgent.notificationsAsSent`).
  var notifications: AsyncStream<LAAgentNotification>.Continuation?

  /// Ends the stream.
  func finish() {
    events?.finish()
    notifications?.finish()
  }
}

extension LocalAuthConnection {
  /// Adds an agent stream on the current socket; returns its key.
  func addAgentStream(_ stream: AgentStream) -> Int {
    state.withLock { state in
      let key = state.nextID
      state.nextID += 1
      state.agentStreams[key] = stream
      return key
    }
  }

  /// Adds an agent event stream on the current socket; returns its key.
  func addAgentStream(_ continuation: AsyncStream<LAAgentEvent>.Continuation, generation: Int)
    -> Int
  {
    addAgentStream(AgentStream(generation: generation, events: continuation))
  }

  /// Removes an agent stream.
  func removeAgentStream(_ key: Int) {
    _ = state.withLock { $0.agentStreams.removeValue(forKey: key) }
  }

  /// Delivers `agent.*` notifications to the agent streams (reader thread); whether it was one.
  /// Every `agent.*` notification reaches the streams of notifications as sent, those
  /// `LAAgentEvent` reads reach the event streams.
  func routeAgentNotification(_ method: String, _ params: JSONObject) -> Bool {
    guard method.hasPrefix("agent.") else { return false }
    let streams = state.withLock { Array($0.agentStreams.values) }
    let sent = LAAgentNotification(method: method, params: params)
    for stream in streams { stream.notifications?.yield(sent) }
    if let event = LAAgentEvent(method: method, params: params) {
      for stream in streams { stream.events?.yield(event) }
    }
    return true
  }

  /// The socket of `generation` went away, and with it the daemon's registration: its streams end.
  func finishAgentStreams(generation: Int) {
    let ended = state.withLock { state in
      let ended = state.agentStreams.filter { $0.value.generation == generation }
      for key in ended.keys { state.agentStreams[key] = nil }
      return Array(ended.values)
    }
    for stream in ended { stream.finish() }
  }
}
