import LocalAuthProtocol
import Sensors

/// The policy engine's companion stage: the companion's (watch's) one answer decides.
extension EvaluationRun {
  /// The companion (watch) approval: one answer decides, retries aside.
  mutating func companionCaptured(_ event: CaptureEvent) -> EvaluationStep {
    switch event {
    case .match: end(.success(sensor: sensor?.name ?? "companion"))
    case .noMatch, .passcode: end(.failure(.authenticationFailed))
    case .userCancel: end(.failure(.userCancel))
    case .userFallback: end(.failure(.userFallback))
    case .disconnected: end(.failure(.companionNotAvailable))
    case .retry(let reason): nextCapture([feedback(reason.rawValue)])
    }
  }
}
