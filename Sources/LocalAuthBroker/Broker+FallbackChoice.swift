import LocalAuthProtocol
import Sensors

extension Broker {
  /// The prompt after Face ID's last allowed failed match: it no longer tries to match and waits
  /// for the person to press the fallback button or Cancel (docs/protocol.md, "Evaluation
  /// semantics"). The person answers through the prompt agent, or a simulated sensor's script
  /// stands in for them when `CANCEL` or `FALLBACK` is its next answer; no capture is read
  /// otherwise (a scripted `NOMATCH` or `MATCH` stays queued for the next prompt). Returns nil when
  /// nobody can answer any more (no agent, no scripted choice): the prompt then ends as exhausted
  /// attempts do.
  func fallbackChoice(_ evaluation: Evaluation, _ sensor: any SensorDriver, attempt: Int)
    async throws -> BiometricStage?
  {
    feedback(
      evaluation, sensor.name, "awaitingChoice", attempt: attempt, extra: ["offer": "fallback"])
    while true {
      guard canChooseFallback(evaluation, sensor) else { return nil }
      let scripted = (sensor as? any ScriptableSensor)?.choiceIsScriptedNext == true
      let event: CaptureEvent
      if scripted {
        event = try await nextEvent(from: sensor, for: evaluation, attempt: attempt)
      } else {
        event = try await evaluation.answers.next().event
        try Task.checkCancellation()
      }
      switch event {
      case .userFallback: return .fallbackChosen
      case .userCancel: return .cancelled
      case .disconnected: return .disconnected
      case .match, .noMatch, .passcode, .retry: continue
      }
    }
  }

  /// Whether someone can answer a wait for the fallback choice: a prompt agent, or the script.
  func canChooseFallback(_ evaluation: Evaluation, _ sensor: any SensorDriver) -> Bool {
    evaluation.agent != nil || (sensor as? any ScriptableSensor)?.choiceIsScriptedNext == true
  }
}
