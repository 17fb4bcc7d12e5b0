import LocalAuthProtocol

/// Reuse of a context's biometric success (touchIDAuthenticationAllowableReuseDuration): the grant
/// a success leaves on its context and when it answers a later evaluation.
extension Broker {
  /// Remembers a biometric success on its context for reuse; any other success clears the grant.
  /// Every explicit context keeps one, as Apple's: "a previously successful authentication causes
  /// the next policy evaluation [on the same context] to succeed without testing biometry again".
  /// An implicit context (no `context` param) keeps one only when the daemon gave it a reuse
  /// window (an SSH key's context); otherwise it is never evaluated twice.
  func grantReuse(_ evaluation: Evaluation, _ success: EvaluationSuccess) {
    let context = evaluation.context
    guard context.explicit || context.options.reuseDuration > 0 else { return }
    guard !success.reused else { return }
    let biometric = evaluation.sensor.flatMap { name in
      sensors.drivers.first { $0.name == name }?.kind.isBiometric
    }
    context.reuseGrant =
      biometric == true
      ? ReuseGrant(
        at: services.time.now(), policy: evaluation.policy, owner: evaluation.owner.uid,
        domainState: domainStateHash(owner: evaluation.owner.uid)) : nil
  }

  /// Whether the context's last biometric success answers this policy now: the grant answers it
  /// (`ReuseGrant.answers`: the same policy and owner, within the window), biometry is usable (not
  /// locked out) and the enrolled set is the one that matched.
  func mayReuse(_ context: AuthContext, for policy: Policy, owner: UInt32) -> Bool {
    guard let grant = context.reuseGrant,
      grant.answers(
        policy, owner: owner, at: services.time.now(), window: context.options.reuseDuration,
        explicit: context.explicit),
      case .success = biometryAvailability(owner: owner),
      grant.domainState == domainStateHash(owner: owner)
    else { return false }
    return true
  }
}
