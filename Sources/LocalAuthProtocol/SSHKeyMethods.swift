/// The methods of the SSH keys of `localauthctl ssh-key` and `localauthctl ssh-agent` (issue 22):
/// P-256 keys owned by the caller's uid that sign only in the daemon, each signature after an
/// evaluation of the key's policy for that uid. No method gives out a private key.
extension Method {
  /// `sshKey.create {name, policy?, reuseSeconds?}` → the key (as `sshKey.list` lists each one).
  public static let sshKeyCreate = "sshKey.create"
  /// `sshKey.list {}` → `{keys: [{name, publicKey, fingerprint, policy, reuseSeconds, createdAt, lastUsedAt?}]}`
  public static let sshKeyList = "sshKey.list"
  /// `sshKey.delete {name}` → `{}`
  public static let sshKeyDelete = "sshKey.delete"
  /// `sshKey.sign {name, data, hostKey?, hostKeySignature?, hostName?}` → `{signature, requestID,
  /// reason}`: an evaluation of the key's policy for the caller (no prompt within the key's reuse
  /// window), then an ECDSA P-256 signature over SHA-256(data), DER. The daemon words the reason
  /// from the data (a login, an SSHSIG file signature, anything else); for a login bound to a
  /// server, `hostKey` and its `hostKeySignature` over the session identifier are checked against
  /// the data, and `hostName` (from known_hosts) names it.
  public static let sshKeySign = "sshKey.sign"
}

/// The presence policies an SSH key may require, by their `policy` names.
public enum SSHKeyPolicy: String, Sendable, CaseIterable {
  /// A biometric match (deviceOwnerAuthenticationWithBiometrics); the default.
  case biometrics
  /// A biometric match or the passcode (deviceOwnerAuthentication).
  case any

  /// The LocalAuthentication policy evaluated before each signature.
  public var policy: Policy {
    switch self {
    case .biometrics: .deviceOwnerAuthenticationWithBiometrics
    case .any: .deviceOwnerAuthentication
    }
  }
}
