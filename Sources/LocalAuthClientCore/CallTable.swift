import LocalAuthProtocol

/// One request in flight on a connection.
struct PendingCall: Sendable {
  /// The method, for diagnostics.
  var method: String
  /// The socket generation it was sent on; a lost socket fails exactly its own calls.
  var generation: Int
  /// Called once with the response (or the connection loss), outside any lock.
  var completion: @Sendable (Result<JSONValue, any Error>) -> Void
  /// Receives the evaluation's progress notifications; nil for calls that are not evaluations.
  var onEvent: (@Sendable (LAEvaluationEvent) -> Void)?
  /// The server's requestID, once a notification or the response revealed it.
  var requestID: String?
  /// Whether the app asked to cancel before the requestID was known.
  var cancelRequested = false
}

/// The table of requests in flight on one connection, with the routing of progress
/// notifications to their evaluation. Pure value type; the connection guards it with its Mutex.
///
/// A notification is routed by its requestID. The first one of an evaluation carries a requestID
/// the client has not seen: it is bound to the evaluation named by the notification's `id`
/// member when the daemon sends one, else to the oldest evaluation still without a requestID
/// (the daemon handles one connection's requests in the order they arrive).
struct CallTable: Sendable {
  private(set) var calls: [Int: PendingCall] = [:]
  private var byRequestID: [String: Int] = [:]

  /// Whether nothing is in flight.
  var isEmpty: Bool { calls.isEmpty }

  /// Records a call sent with this id.
  mutating func add(id: Int, _ call: PendingCall) { calls[id] = call }

  /// Removes and returns the call a response answers.
  mutating func complete(id: Int) -> PendingCall? {
    guard let call = calls.removeValue(forKey: id) else { return nil }
    if let requestID = call.requestID { byRequestID[requestID] = nil }
    return call
  }

  /// Removes and returns every call sent on the given socket generation.
  mutating func removeAll(generation: Int) -> [PendingCall] {
    let lost = calls.filter { $0.value.generation == generation }
    for id in lost.keys { _ = complete(id: id) }
    return lost.sorted { $0.key < $1.key }.map(\.value)
  }

  /// The requestID known for an evaluation call, if any.
  func requestID(forCall id: Int) -> String? { calls[id]?.requestID }

  /// Whether an evaluation call is still in flight.
  func contains(_ id: Int) -> Bool { calls[id] != nil }

  /// Marks that the app wants the evaluation cancelled; returns its requestID if known.
  mutating func requestCancel(id: Int) -> String? {
    calls[id]?.cancelRequested = true
    return calls[id]?.requestID
  }

  /// Finds the evaluation a notification belongs to, binding a new requestID to it.
  /// Returns the call id, the event handler, and whether a cancel is owed now that the requestID is known.
  mutating func route(_ event: LAEvaluationEvent, callID hinted: Int?)
    -> (id: Int, onEvent: (@Sendable (LAEvaluationEvent) -> Void)?, cancelOwed: Bool)?
  {
    if let id = byRequestID[event.requestID], let call = calls[id] {
      return (id, call.onEvent, false)
    }
    let candidate: Int?
    if let hinted, let call = calls[hinted], call.onEvent != nil, call.requestID == nil {
      candidate = hinted
    } else {
      candidate = calls.filter { $0.value.onEvent != nil && $0.value.requestID == nil }.keys.min()
    }
    guard let id = candidate, var call = calls[id] else { return nil }
    call.requestID = event.requestID
    calls[id] = call
    byRequestID[event.requestID] = id
    return (id, call.onEvent, call.cancelRequested)
  }
}
