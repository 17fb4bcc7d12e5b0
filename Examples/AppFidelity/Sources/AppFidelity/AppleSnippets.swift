import LocalAuthClient  // the shim's own module name works too

// Snippets from Apple's LocalAuthentication documentation pages, as written there.

/// LAContext: "touchIDAuthenticationAllowableReuseDuration".
func configureReuse(_ context: LAContext) {
  context.touchIDAuthenticationAllowableReuseDuration =
    LATouchIDAuthenticationMaximumAllowableReuseDuration
  context.localizedReason = "Unlock your account"
}

/// "Logging a User into Your App": the result of the check is not always used.
func warmUp(_ context: LAContext) -> LABiometryType {
  context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
  return context.biometryType
}

/// LAError: read the code back from the NSError of canEvaluatePolicy(_:error:).
func laErrorCode(from context: LAContext, policy: LAPolicy) -> LAError.Code? {
  var error: NSError?
  guard !context.canEvaluatePolicy(policy, error: &error) else { return nil }
  if let laError = error as? LAError {
    return laError.code
  }
  return nil
}

/// The Objective-C habit: catch the error as an NSError and compare with the kLAError constants.
func nsErrorCode(evaluating policy: LAPolicy, on context: LAContext) async -> (String, Int)? {
  do {
    try await context.evaluatePolicy(policy, localizedReason: "Confirm")
    return nil
  } catch let error as NSError {
    return (error.domain, error.code)
  }
}

/// Apple's enrolment-change check with evaluatedPolicyDomainState.
final class EnrollmentWatch {
  private var saved: Data?

  /// True when the enrolled set changed since the last call.
  func biometryChanged() -> Bool {
    let context = LAContext()
    var error: NSError?
    context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
    guard let state = context.evaluatedPolicyDomainState else { return false }
    defer { saved = state }
    return saved != nil && saved != state
  }
}

/// iOS 18's LAEnvironment observer, as Apple's sample writes it (an NSObject, not Sendable).
final class BiometryStatusObserver: NSObject, LAEnvironment.Observer {
  var changes = 0
  var lastUsable: Bool?

  func environment(
    _ environment: LAEnvironment, stateDidChangeFromOldState oldState: LAEnvironment.State
  ) {
    changes += 1
    lastUsable = environment.state.biometry?.isUsable
  }
}

/// LAEnvironment's mechanisms, through Apple's Swift names.
func describeMechanisms(_ state: LAEnvironment.State) -> [String] {
  state.allMechanisms.map { (mechanism: LAEnvironment.Mechanism) -> String in
    if let biometry = mechanism as? LAEnvironment.MechanismBiometry {
      return "\(biometry.localizedName) enrolled=\(biometry.isEnrolled)"
    }
    if let password = mechanism as? LAEnvironment.MechanismUserPassword {
      return "passcode set=\(password.isSet)"
    }
    if let companion = mechanism as? LAEnvironment.MechanismCompanion {
      return "companion \(companion.localizedName)"
    }
    return mechanism.localizedName
  }
}

/// LADomainState's parts under their Objective-C names.
func domainParts(_ context: LAContext) -> (LADomainStateBiometry, LADomainStateCompanion) {
  (context.domainState.biometry, context.domainState.companion)
}

/// Apple's log-in sample, with its shared context: "If you use the same context on multiple
/// attempts, then a previously successful authentication causes the next policy evaluation to
/// succeed without testing biometry again." Returns whether the daemon reused the success.
func logInTwice(with context: LAContext) async throws -> Bool {
  try await context.evaluatePolicy(
    .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
  let again = try await context.evaluate(
    .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
  return again.reused
}

/// Legacy names an old code base still uses.
@available(*, deprecated)
func legacyNoBiometry(_ context: LAContext) -> Bool {
  context.biometryType == LABiometryType.LABiometryNone
}
