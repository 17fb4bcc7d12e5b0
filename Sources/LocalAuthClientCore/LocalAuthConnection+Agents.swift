import LocalAuthProtocol

/// One `LAPromptAgent` event stream on a socket.
struct AgentStream {
  /// The socket generation the agent registered on; the stream ends when that socket goes away.
  var generation: Int
  /// Where the events go.
  var continuation: AsyncStream<LAAgentEvent>.Continuation
}

extension LocalAuthConnection {
  /// Adds an agent stream on the current socket; returns its key.
  func addAgentStream(_ continuation: AsyncStream<LAAgentEvent>.Continuation, generation: Int)
    -> Int
  {
    state.withLock { state in
      let key = state.nextID
      state.nextID += 1
      state.agentStreams[key] = AgentStream(generation: generation, continuation: continuation)
      return key
    }
  }

  /// Removes an agent stream.
  func removeAgentStream(_ key: Int) {
    _ = state.withLock { $0.agentStreams.removeValue(forKey: key) }
  }

  /// Delivers `agent.*` notifications to the agent streams (reader thread); whether it was one.
  func routeAgentNotification(_ method: String, _ params: JSONObject) -> Bool {
    guard let event = LAAgentEvent(method: method, params: params) else { return false }
    for stream in state.withLock({ Array($0.agentStreams.values) }) {
      stream.continuation.yield(event)
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
    for stream in ended { stream.continuation.finish() }
  }
}
