import LocalAuthProtocol

/// The connections that called `broker.monitor` (docs/diagnostics.md): who receives which
/// `monitor.event`, and the environment they were last told about. Owns the subscriptions; a
/// change to what a monitor sees goes here. Value type, held by the Broker actor.
struct MonitorSubscribers {
  /// The subscribed clients by connection number.
  private var clients: [Int: ClientSession] = [:]
  /// The environment digest last announced (see `Broker.announceEnvironmentChange`).
  private var lastEnvironment = ""

  /// Whether nobody monitors (then no event is built at all).
  var isEmpty: Bool { clients.isEmpty }

  /// Subscribes a client; `environment` is the current digest, the baseline when it is the first
  /// subscriber. Subscribing twice changes nothing.
  mutating func subscribe(_ client: ClientSession, environment: @autoclosure () -> String) {
    guard clients[client.number] == nil else { return }
    if clients.isEmpty { lastEnvironment = environment() }
    clients[client.number] = client
    client.monitoring = true
  }

  /// Forgets a client (it disconnected).
  mutating func unsubscribe(_ client: ClientSession) {
    clients[client.number] = nil
  }

  /// Sends an evaluation's event to each subscriber allowed to see it: admins, the evaluation's
  /// client's uid and its owner's uid.
  func send(_ event: MonitorEvent, clientUID: UInt32, ownerUID: UInt32) {
    let params = event.object
    for client in clients.values
    where client.isAdmin || client.peer.uid == clientUID || client.peer.uid == ownerUID {
      client.channel.notify(Notification.monitorEvent, params)
    }
  }

  /// Tells every subscriber `{event: "environment"}` when `digest` differs from the last one
  /// announced; returns whether it did.
  @discardableResult
  mutating func announce(environment digest: String) -> Bool {
    guard digest != lastEnvironment else { return false }
    lastEnvironment = digest
    for client in clients.values {
      client.channel.notify(
        Notification.monitorEvent, MonitorEvent(machineEvent: "environment").object)
    }
    return true
  }
}
