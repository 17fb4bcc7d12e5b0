import LocalAuthProtocol
import Sensors

/// Waits no agent shows (docs/owners-and-agents.md, "Waits no agent shows"): an evaluation that
/// waits on a biometric sensor with no prompt agent showing it (a system evaluation: sudo, polkit)
/// is told to one agent of its owner, the one that would show a prompt of that client, as
/// `agent.waiting`, and its end as `agent.waitEnded`, so a desktop can say that the sensor waits.
extension Broker {
  /// The agent to tell that `evaluation` waits on `sensor`, or nil: none when an agent shows the
  /// evaluation, when it was told already, when the sensor is not biometric, and for a system
  /// evaluation that another uid asked for (`su U` run by A: U's agents never hear of it).
  func unshownWaitAgent(_ evaluation: Evaluation, sensor: any SensorDriver) -> PromptAgent? {
    guard evaluation.agent == nil, evaluation.waitTold == nil, sensor.kind.isBiometric else {
      return nil
    }
    if let system = evaluation.system, system.requester != evaluation.owner.uid { return nil }
    return sessions.agents.agent(owner: evaluation.owner.uid, requester: evaluation.client.peer)
  }

  /// Tells the owner's agent that the running `evaluation` waits on `sensor` (once per evaluation).
  func announceUnshownWait(_ evaluation: Evaluation, sensor name: String) {
    guard let sensor = sensors.driver(named: name),
      let agent = unshownWaitAgent(evaluation, sensor: sensor)
    else { return }
    evaluation.waitTold = agent
    let client = evaluation.client
    agent.connection.channel.notify(
      AgentWaitingNotification.method,
      AgentWaitingEvent(
        requestID: evaluation.requestID, system: evaluation.isSystem,
        user: evaluation.owner.name, sensor: name, sensorKind: sensor.kind.rawValue,
        clientName: client.name, clientPID: Int(client.peer.pid), clientUID: Int(client.peer.uid),
        localizedReason: evaluation.reason
      ).object)
  }

  /// Tells the agent told of `evaluation`'s wait that it ended.
  func endUnshownWait(_ evaluation: Evaluation) {
    guard let agent = evaluation.waitTold else { return }
    evaluation.waitTold = nil
    guard agent.connection.connected else { return }
    agent.connection.channel.notify(
      AgentWaitEndedNotification.method,
      AgentWaitEndedEvent(requestID: evaluation.requestID).object)
  }
}
