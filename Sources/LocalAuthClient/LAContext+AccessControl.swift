import LocalAuthProtocol

extension LAContext {
  /// Evaluates an access control on a context: the requirement's policies in turn, then the
  /// biometric set check of `.biometryCurrentSet`. Shared by both forms of
  /// `evaluateAccessControl`; only `Sendable` values cross into it.
  static func evaluate(
    _ accessControl: SecAccessControl, operation: LAAccessControlOperation,
    localizedReason: String, on context: LocalAuthContext
  ) async throws -> Bool {
    let requirement = accessControl.requirement
    if requirement.needsApplicationPassword && !context.isCredentialSet(.applicationPassword) {
      throw LAError(
        .notInteractive, message: "No application password is set on this context.",
        reason: "applicationPasswordNotSet")
    }
    let bound = accessControl.boundBiometrySet.withLock { $0 }
    if requirement.bindsBiometrySet, let bound, await biometrySet(of: context) != bound {
      throw biometrySetChanged()
    }
    for policy in requirement.policies {
      try await context.evaluatePolicy(policy, localizedReason: localizedReason)
    }
    guard requirement.bindsBiometrySet else { return true }
    let current = await biometrySet(of: context)
    let accepted = accessControl.boundBiometrySet.withLock { set in
      if set == nil { set = current }
      return set == current
    }
    if !accepted { throw biometrySetChanged() }
    return true
  }

  /// The enrolled set's hash, read off the cooperative pool (domainState blocks for a round trip).
  private static func biometrySet(of context: LocalAuthContext) async -> Data? {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: context.domainState.biometry.stateHash)
      }
    }
  }

  /// The failure of a `.biometryCurrentSet` access control after an enrolment change.
  private static func biometrySetChanged() -> LAError {
    LAError(
      .authenticationFailed,
      message: "The enrolled biometry changed since this access control was first satisfied.",
      reason: "biometrySetChanged")
  }
}
