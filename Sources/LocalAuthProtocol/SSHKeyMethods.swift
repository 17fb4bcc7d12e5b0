// The requests of the SSH keys of `localauthctl ssh-key` and `localauthctl ssh-agent` (issue 22):
// P-256 keys owned by the caller's uid that sign only in the daemon, each signature after an
// evaluation of the key's policy for that uid. No method gives out a private key.

/// `sshKey.create {name, policy?, reuseSeconds?}` → the key (as `sshKey.list` lists each one).
public enum SSHKeyCreateRequest: RequestType {
  /// `sshKey.create`
  public static let method = "sshKey.create"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `sshKey.list {}` → `{keys: [{name, publicKey, fingerprint, policy, reuseSeconds, createdAt, lastUsedAt?}]}`
public enum SSHKeyListRequest: RequestType {
  /// `sshKey.list`
  public static let method = "sshKey.list"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `sshKey.delete {name}` → `{}`
public enum SSHKeyDeleteRequest: RequestType {
  /// `sshKey.delete`
  public static let method = "sshKey.delete"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
}

/// `sshKey.sign {name, data, hostKey?, hostKeySignature?, hostName?}` → `{signature, requestID,
/// reason}`: an evaluation of the key's policy for the caller (no prompt within the key's reuse
/// window), then an ECDSA P-256 signature over SHA-256(data), DER.
public enum SSHKeySignRequest: RequestType {
  /// `sshKey.sign`
  public static let method = "sshKey.sign"
  /// The result object.
  public typealias Result = JSONValue
  /// The params, read by field name by the handler.
  public typealias Params = KeyedParams
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
