import LocalAuthProtocol

extension Broker {
  /// Sends an evaluation's notification to its client, if it is still connected.
  func notify<N: NotificationType>(_ evaluation: Evaluation, _: N.Type, _ params: N.Params) {
    guard evaluation.client.connected else { return }
    evaluation.client.channel.notify(N.method, params.object)
  }

  /// A notification's params without the requestID (the agent's and the monitors' own carry it).
  static func body(_ params: some NotificationPayload) -> JSONObject {
    JSONObject(params.object.members.filter { $0.key != "requestID" })
  }

  /// Sends a monitor.event to every monitoring client allowed to see this evaluation; `extra` is
  /// made only when someone monitors (most runs have no monitor).
  func monitor(_ evaluation: Evaluation, _ event: String, _ extra: @autoclosure () -> JSONObject) {
    guard !observability.monitors.isEmpty else { return }
    let params = MonitorEvent(
      event: event, requestID: evaluation.requestID, clientPID: Int(evaluation.client.peer.pid),
      clientUID: Int(evaluation.client.peer.uid), clientName: evaluation.client.name,
      policy: evaluation.policy, ownerUID: Int(evaluation.owner.uid), details: extra())
    observability.monitors.send(
      params, clientUID: evaluation.client.peer.uid, ownerUID: evaluation.owner.uid)
  }
}
