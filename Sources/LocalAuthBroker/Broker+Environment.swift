import LocalAuthProtocol

extension Broker {
  /// What a client's LAEnvironment shows, reduced to one string: sensor availability, and for
  /// every owner the daemon knows, its enrolled identities, lockout and whether a passcode is set.
  var environmentDigest: String {
    let uids = Set(device.owners.states.keys).union([configuration.setupOwner]).sorted()
    var parts: [String] = sensors.drivers.map { driver in
      let state = driver.state(for: configuration.setupOwner)
      return "\(state.name):\(state.available):\(state.connected)"
    }
    for uid in uids {
      let owner = ownerState(uid)
      let enrolled = sensors.drivers.map { driver in
        driver.state(for: uid).enrolled.map(\.identity).joined(separator: ",")
      }
      parts.append(
        "\(uid):\(owner.biometryLockedOut):\(owner.passcode != nil):\(enrolled.joined(separator: ";"))"
      )
    }
    return parts.joined(separator: "|")
  }

  /// Tells every monitoring client `monitor.event {event: "environment"}` when the environment
  /// changed since the last announcement (LAEnvironment observers refresh on it). Carries no
  /// details: each client reads what it may see with `sensors.list`.
  func announceEnvironmentChange() {
    guard !observability.monitors.isEmpty else { return }
    observability.monitors.announce(environment: environmentDigest)
  }
}
