import LocalAuthProtocol

extension Broker {
  /// What a client's LAEnvironment shows, reduced to one string: sensor availability, enrolled
  /// counts, lockouts, whether a passcode is set, and the domain state hash.
  var environmentDigest: String {
    var parts: [String] = sensors.drivers.map { driver in
      let state = driver.state()
      return "\(state.name):\(state.available):\(state.connected):\(state.enrolled.count)"
    }
    parts.append("lockout:\(device.biometryLockedOut)")
    parts.append("passcode:\(device.passcode != nil)")
    parts.append("hash:\(domainStateHash ?? "-")")
    return parts.joined(separator: "|")
  }

  /// Takes the current environment as the one monitors know (when the first one subscribes).
  func baselineEnvironment() {
    if monitorCount == 0 { lastEnvironmentDigest = environmentDigest }
  }

  /// Tells every monitoring client `monitor.event {event: "environment"}` when the environment
  /// changed since the last announcement (LAEnvironment observers refresh on it). Carries no
  /// details: each client reads what it may see with `sensors.list`.
  func announceEnvironmentChange() {
    guard monitorCount > 0 else { return }
    let digest = environmentDigest
    guard digest != lastEnvironmentDigest else { return }
    lastEnvironmentDigest = digest
    for client in clients.values where client.monitoring {
      client.channel.notify(Notification.monitorEvent, ["event": "environment"])
    }
  }
}
