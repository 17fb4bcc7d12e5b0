import LocalAuthProtocol

/// The LAContext analogue: options, the last success (for reuse), at most one evaluation in flight.
/// Broker-isolated.
final class AuthContext {
  let id: String
  let options: ContextOptions
  /// Whether the client made it with context.create (else it lives for one request).
  let explicit: Bool
  var invalidated = false
  var inFlight: Evaluation?
  /// What a later evaluation may reuse (touchIDAuthenticationAllowableReuseDuration).
  var reuseGrant: ReuseGrant?

  init(id: String, options: ContextOptions, explicit: Bool) {
    self.id = id
    self.options = options
    self.explicit = explicit
  }

  /// Whether the fallback button is shown at all (an empty title hides it, as on Apple's platforms).
  var fallbackButtonShown: Bool { options.localizedFallbackTitle != "" }
}

/// A biometric success an evaluation of the same context may reuse without a prompt, as Apple's
/// touchIDAuthenticationAllowableReuseDuration allows: only a biometric match, only for the same
/// policy, only while the enrolled set is the one that matched and biometry is usable.
struct ReuseGrant {
  /// When the match happened.
  let at: Duration
  /// The policy that succeeded.
  let policy: Policy
  /// Whose presence it proved.
  let owner: UInt32
  /// The domain state at the match.
  let domainState: String?
}

extension ReuseGrant {
  /// Whether the grant, on its own, answers an evaluation of `policy` for `owner` at `now`: the
  /// same policy and owner, and within `window` seconds of the match when the context set one
  /// (touchIDAuthenticationAllowableReuseDuration > 0), else for an explicit context's lifetime, as
  /// Apple's contexts remember their success. The broker adds what the sensors say: biometry still
  /// usable, the enrolled set the one that matched.
  func answers(_ policy: Policy, owner: UInt32, at now: Duration, window: Double, explicit: Bool)
    -> Bool
  {
    guard self.policy == policy, self.owner == owner else { return false }
    guard window > 0 else { return explicit }
    return now - at <= .milliseconds(Int64(window * 1000))
  }
}
