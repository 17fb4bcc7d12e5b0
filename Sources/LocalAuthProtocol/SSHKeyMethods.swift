// The requests of the SSH keys of `localauthctl ssh-key` and `localauthctl ssh-agent` (issue 22):
// P-256 keys owned by the caller's uid that sign only in the daemon, each signature after an
// evaluation of the key's policy for that uid. No method gives out a private key.

/// The params that name one of the caller's SSH keys: `name`.
public protocol SSHKeyParams: MethodParams {}

extension SSHKeyParams {
  /// `name`, required, not empty (its characters are checked by the handler).
  public func name() throws(RPCError) -> String { try reader.nonEmptyString("name") }
}

/// `sshKey.create {name, policy?, reuseSeconds?, keepOnLock?}` → the key (as `sshKey.list` lists each one).
public enum SSHKeyCreateRequest: RequestType {
  /// `sshKey.create`
  public static let method = "sshKey.create"
  /// The result object.
  public typealias Result = SSHKeyEntry

  /// `{name, policy?, reuseSeconds?, keepOnLock?}`.
  public struct Params: SSHKeyParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a key named `name` that signs after `policy`, reusing a success for
    /// `reuseSeconds`, and whether the window outlives a lock of the session (`keepOnLock`).
    public init(name: String, policy: SSHKeyPolicy, reuseSeconds: Int, keepOnLock: Bool = false) {
      object = [
        "name": .string(name), "policy": .string(policy.rawValue),
        "reuseSeconds": .int(reuseSeconds), "keepOnLock": .bool(keepOnLock),
      ]
    }
    /// `keepOnLock`, optional: whether the reuse window stays open when the session locks, the
    /// machine suspends or the user logs out (default: it closes).
    public func keepOnLock() throws(RPCError) -> Bool? { try reader.optionalBool("keepOnLock") }
    /// `policy`, optional: an `SSHKeyPolicy` name, checked by the handler.
    public func policy() throws(RPCError) -> String? { try reader.optionalString("policy") }
    /// `reuseSeconds`, optional, within `range`.
    public func reuseSeconds(in range: ClosedRange<Int>) throws(RPCError) -> Int? {
      try reader.optionalInt("reuseSeconds", in: range)
    }
  }
}

/// `sshKey.list {}` → `{keys: [{name, publicKey, fingerprint, policy, reuseSeconds, createdAt, lastUsedAt?}]}`
public enum SSHKeyListRequest: RequestType {
  /// `sshKey.list`
  public static let method = "sshKey.list"
  /// The result object.
  public typealias Result = SSHKeyListResult
  /// None.
  public typealias Params = NoParams
}

/// `sshKey.delete {name}` → `{}`
public enum SSHKeyDeleteRequest: RequestType {
  /// `sshKey.delete`
  public static let method = "sshKey.delete"
  /// The result object.
  public typealias Result = EmptyResult

  /// `{name}`.
  public struct Params: SSHKeyParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that delete the key named `name`.
    public init(name: String) { object = ["name": .string(name)] }
  }
}

/// `sshKey.sign {name, data, hostKey?, hostKeySignature?, hostName?, hostSessionID?}` → `{signature, requestID,
/// reason}`: an evaluation of the key's policy for the caller (no prompt within the key's reuse
/// window), then an ECDSA P-256 signature over SHA-256(data), DER.
public enum SSHKeySignRequest: RequestType {
  /// `sshKey.sign`
  public static let method = "sshKey.sign"
  /// The result object.
  public typealias Result = SSHSignResult

  /// `{name, data, hostKey?, hostKeySignature?, hostName?, hostSessionID?}`.
  public struct Params: SSHKeyParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that sign `data` with the key named `name`, for a login to the host with
    /// `hostKey` (its signature over the session identifier, and its known_hosts name) if given.
    public init(
      name: String, data: [UInt8], hostKey: [UInt8]?, hostKeySignature: [UInt8]?,
      hostName: String?, hostSessionID: [UInt8]? = nil
    ) {
      object = [
        "name": .string(name), "data": .string(Base64.encode(data)),
        "hostKey": hostKey.map { .string(Base64.encode($0)) },
        "hostKeySignature": hostKeySignature.map { .string(Base64.encode($0)) },
        "hostName": hostName.map(JSONValue.string),
        "hostSessionID": hostSessionID.map { .string(Base64.encode($0)) },
      ]
    }
    /// `data`, required, base64, at most `maxBytes`.
    public func data(maxBytes: Int) throws(RPCError) -> [UInt8] {
      try reader.base64("data", maxBytes: maxBytes)
    }
    /// `hostKey`, optional, base64, at most `maxBytes`.
    public func hostKey(maxBytes: Int) throws(RPCError) -> [UInt8]? {
      try reader.optionalBase64("hostKey", maxBytes: maxBytes)
    }
    /// `hostKeySignature`, required with `hostKey`, base64, at most `maxBytes`.
    public func hostKeySignature(maxBytes: Int) throws(RPCError) -> [UInt8] {
      try reader.base64("hostKeySignature", maxBytes: maxBytes)
    }
    /// `hostName`, optional.
    public func hostName() throws(RPCError) -> String? { try reader.optionalString("hostName") }
    /// `hostSessionID`, optional, base64, at most `maxBytes`: for data that names no session of
    /// its own (a remote sudo), the session the agent's forwarded connection was bound to, which
    /// `hostKey` signed.
    public func hostSessionID(maxBytes: Int) throws(RPCError) -> [UInt8]? {
      try reader.optionalBase64("hostSessionID", maxBytes: maxBytes)
    }
  }
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
