import LocalAuthProtocol

/// A right known to the connection by its daemon handle; weak, so the table never keeps a right alive.
struct RightReference {
  /// The right, until it is deinitialised.
  weak var right: LARight?
  /// The socket generation the handle belongs to.
  var generation: Int
}

/// One `LAHandoffStore.stateChanges()` stream.
struct HandoffWatcher {
  /// The socket generation it listens on; it ends when that socket goes away.
  var generation: Int
  /// Where the changes go.
  var continuation: AsyncStream<LAHandoffStateChange>.Continuation
}

extension LocalAuthConnection {
  /// Records a right's handle so `right.stateChanged` notifications reach it.
  func register(_ right: LARight, handle: JSONValue, generation: Int) {
    state.withLock { $0.rights[handle] = RightReference(right: right, generation: generation) }
  }

  /// Forgets a right's handle (the right went away or got a new handle).
  func unregisterRight(handle: JSONValue) {
    _ = state.withLock { $0.rights.removeValue(forKey: handle) }
  }

  /// Registers a handoff stream on the current socket; returns its key.
  func addHandoffWatcher(
    _ continuation: AsyncStream<LAHandoffStateChange>.Continuation, generation: Int
  ) -> Int {
    state.withLock { state in
      let key = state.nextID
      state.nextID += 1
      state.handoffWatchers[key] = HandoffWatcher(
        generation: generation, continuation: continuation)
      return key
    }
  }

  /// Removes a handoff stream.
  func removeHandoffWatcher(_ key: Int) {
    _ = state.withLock { $0.handoffWatchers.removeValue(forKey: key) }
  }

  /// Delivers `right.stateChanged` and `handoff.stateChanged` (reader thread). Returns whether the
  /// notification was one of them.
  func routeStateNotification(_ method: String, _ params: JSONObject) -> Bool {
    switch method {
    case Notification.rightStateChanged:
      guard let event = StateChangedEvent(object: params),
        let state = LARight.State(name: event.state),
        let right = self.state.withLock({ $0.rights[.string(event.handle)]?.right })
      else { return true }
      right.receiveState(state)
      return true
    case Notification.handoffStateChanged:
      guard let event = StateChangedEvent(object: params) else { return true }
      let change = LAHandoffStateChange(handoff: event.handle, state: event.state)
      for watcher in state.withLock({ Array($0.handoffWatchers.values) }) {
        watcher.continuation.yield(change)
      }
      return true
    default:
      return false
    }
  }

  /// The socket of `generation` went away: the daemon dropped its rights (they are no longer
  /// authorized and get a new handle on next use) and its handoff streams end.
  func forgetObjects(generation: Int) {
    let (rights, watchers) = state.withLock { state in
      let rights = state.rights.values.filter { $0.generation == generation }.compactMap(\.right)
      state.rights = state.rights.filter { $0.value.generation != generation }
      let watchers = state.handoffWatchers.filter { $0.value.generation == generation }
      for key in watchers.keys { state.handoffWatchers[key] = nil }
      return (rights, Array(watchers.values))
    }
    for right in rights { right.receiveState(.notAuthorized) }
    for watcher in watchers { watcher.continuation.finish() }
    finishAgentStreams(generation: generation)
  }
}
