/// What an access control's flags ask of the user, as the policies that check it: a pure value,
/// computed from ``SecAccessControlCreateFlags`` alone.
///
/// - `.biometryAny` and `.biometryCurrentSet`: `.deviceOwnerAuthenticationWithBiometrics`;
///   `.biometryCurrentSet` also fails once the enrolled set differs from the one that first
///   satisfied this access control (see ``bindsBiometrySet``).
/// - `.userPresence`: `.deviceOwnerAuthentication` (biometry or the passcode).
/// - `.devicePasscode`: `.deviceOwnerAuthentication` too. localauthd has no passcode-only policy,
///   so biometry also satisfies it (Apple asks for the passcode alone).
/// - `.companion`: `.deviceOwnerAuthenticationWithCompanion`.
/// - `.applicationPassword`: the context must hold one (`setCredential(_:type:)`); it is never
///   prompted for.
/// - Several constraints: with `.or`, one policy that accepts any of them; otherwise (`.and`, or
///   no operator) each policy in turn, biometry first.
/// - No constraint (only a protection class, or `.privateKeyUsage`): nothing to prove, success.
public struct AccessControlRequirement: Sendable, Equatable {
  /// The policies to evaluate, in order; every one must succeed.
  public var policies: [LAPolicy]
  /// Whether the context must hold an application password.
  public var needsApplicationPassword: Bool
  /// Whether the enrolled biometric set is bound on first success (`.biometryCurrentSet`).
  public var bindsBiometrySet: Bool

  /// The requirement the flags state.
  public init(_ flags: SecAccessControlCreateFlags) {
    var constraints: [LAPolicy] = []
    if !flags.isDisjoint(with: [.biometryAny, .biometryCurrentSet]) {
      constraints.append(.deviceOwnerAuthenticationWithBiometrics)
    }
    if flags.contains(.companion) { constraints.append(.deviceOwnerAuthenticationWithCompanion) }
    if !flags.isDisjoint(with: [.userPresence, .devicePasscode]) {
      constraints.append(.deviceOwnerAuthentication)
    }
    policies = flags.contains(.or) ? Self.anyOf(constraints) : constraints
    needsApplicationPassword = flags.contains(.applicationPassword)
    bindsBiometrySet = flags.contains(.biometryCurrentSet)
  }

  /// The one policy that accepts any of the constraints.
  private static func anyOf(_ constraints: [LAPolicy]) -> [LAPolicy] {
    if constraints.contains(.deviceOwnerAuthentication) { return [.deviceOwnerAuthentication] }
    if constraints.count > 1 { return [.deviceOwnerAuthenticationWithBiometricsOrCompanion] }
    return constraints
  }
}
