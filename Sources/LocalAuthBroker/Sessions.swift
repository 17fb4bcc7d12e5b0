import LocalAuthConcurrency

/// The connections the broker serves: every client's session by number, the connections that have
/// not made a request yet, and the prompt agents those clients registered. Lives in the broker
/// actor and is touched only on its executor.
struct Sessions {
  /// The connected clients' sessions, by client number.
  private(set) var clients: [Int: ClientSession] = [:]
  /// Connections whose client has not made a request yet (no session; see
  /// `Broker.quietConnectionAccepted`).
  private(set) var quietConnections = 0
  /// The number the last session was given.
  private var lastClientNumber = 0
  /// The registered prompt agents.
  var agents = AgentRegistry()

  /// The number of connected clients, quiet ones included.
  var count: Int { clients.count + quietConnections }

  /// Opens a session for a new connection; `wasQuiet` when it was counted as a quiet one.
  mutating func connect(
    peer: PeerIdentity, isAdmin: Bool, name: String, channel: any ClientChannel, wasQuiet: Bool,
    loop: ExecutorLoop
  ) -> ClientSession {
    if wasQuiet { quietConnections -= 1 }
    lastClientNumber += 1
    let session = ClientSession(
      number: lastClientNumber, peer: peer, isAdmin: isAdmin, name: name, channel: channel,
      loop: loop)
    clients[session.number] = session
    return session
  }

  /// Closes a session; false when it was already closed (nothing to end).
  mutating func disconnect(_ client: ClientSession) -> Bool {
    guard client.connected else { return false }
    client.connected = false
    clients[client.number] = nil
    return true
  }

  /// A connection was accepted whose client has not made a request yet.
  mutating func quietConnectionAccepted() { quietConnections += 1 }

  /// A connection that never made a request closed.
  mutating func quietConnectionClosed() { quietConnections -= 1 }
}
