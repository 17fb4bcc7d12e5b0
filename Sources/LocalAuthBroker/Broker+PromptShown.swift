import LocalAuthProtocol
import Sensors

extension Broker {
  /// Whether a starting evaluation's prompt is shown to anyone, so that its client may be told
  /// `evaluation.started` ("prompt shown"). Not when the evaluation goes straight to a passcode
  /// that nobody can type (no biometry to try, no agent showing the prompt, no script standing
  /// in): its run ends at once with notInteractive, and nothing was shown (issue 29, item 6).
  func promptIsShown(_ evaluation: Evaluation) -> Bool {
    guard evaluation.policy == .deviceOwnerAuthentication, evaluation.agent == nil,
      case .failure = biometryAvailability(owner: evaluation.owner.uid),
      let passcode = try? passcodeAvailability(owner: evaluation.owner.uid).get()
    else { return true }
    return (passcode as? any ScriptableSensor)?.hasScriptedInput == true
  }
}
