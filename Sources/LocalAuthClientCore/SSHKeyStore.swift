import FoundationEssentials
import LocalAuthProtocol

/// One SSH key of this user as the daemon describes it: everything public, nothing private.
public struct SSHKey: Sendable, Equatable {
  /// The key's name (the comment of its public key line).
  public var name: String
  /// The OpenSSH public key line, `ecdsa-sha2-nistp256 AAAA… NAME`.
  public var publicKeyLine: String
  /// `SHA256:…`, as `ssh-keygen -l` prints it.
  public var fingerprint: String
  /// The presence each signature needs: biometrics, or any (biometrics or the passcode).
  public var policy: SSHKeyPolicy
  /// How long a biometric match lets further signatures pass without a capture, in seconds.
  public var reuseSeconds: Int
  /// When the key was made.
  public var createdAt: Date
  /// When it last signed.
  public var lastUsedAt: Date?
  /// How its latest signature since the daemon started ended: "signed", or why it was refused
  /// (the LAError's name, and its reason after a colon: "notInteractive: noAgent").
  public var lastOutcome: String?
  /// Where its private key lives: "tpm" (made inside the TPM, never leaves it) or "file" (sealed
  /// under the device key); "file" from a daemon that does not say.
  public var keyStore: String
  /// Whether its reuse window outlives a lock of the session, a suspend and a logout.
  public var keepOnLock: Bool

  /// A key from an `sshKey.*` answer.
  init(_ entry: SSHKeyEntry) throws {
    guard let policy = SSHKeyPolicy(rawValue: entry.policy) else {
      throw RPCError(.internalError, "The daemon's SSH key answer names an unknown policy.")
    }
    name = entry.name
    publicKeyLine = entry.publicKey
    fingerprint = entry.fingerprint
    self.policy = policy
    reuseSeconds = entry.reuseSeconds
    createdAt = entry.createdAt.date
    lastUsedAt = entry.lastUsedAt?.date
    lastOutcome = entry.lastOutcome.map { last in
      last.reason.map { "\(last.outcome): \($0)" } ?? last.outcome
    }
    keyStore = entry.keyStore
    keepOnLock = entry.keepOnLock
  }

  /// The X9.63 public point, from the public key line's blob.
  public var publicKeyX963: [UInt8]? {
    let fields = publicKeyLine.split(separator: " ")
    guard fields.count >= 2, let blob = Base64.decode(String(fields[1])), blob.count >= 65 else {
      return nil
    }
    return Array(blob.suffix(65))
  }
}

/// This user's SSH keys in the daemon (`localauthctl ssh-key`, `localauthctl ssh-agent`).
///
/// An SSH key is the same kind of object as an `LAPersistedRight`'s key: a P-256 key made in the
/// daemon, sealed under the device key in the rights store, whose private half never leaves the
/// daemon. Two things differ. It belongs to the uid alone (no app id), so every program of the
/// user, the agent included, names the same key. And it has no authorization state to hold:
/// where a persisted right is authorized once and then signs until deauthorized, each
/// `sign(_:with:reason:)` is its own evaluation of the key's policy, passing without a capture
/// only within the key's reuse window after a biometric match of the same key and owner.
public struct SSHKeyStore: Sendable {
  /// The connection the calls go over.
  public let connection: LocalAuthConnection

  /// The keys reached over the given connection.
  public init(connection: LocalAuthConnection = .shared) { self.connection = connection }

  /// Makes a new key named `name` (letters, digits, `._-@+`, at most 64 bytes).
  /// - Throws: `RPCError` alreadyExists for a name in use, limitExceeded at `MaxSSHKeysPerUID`.
  /// The reuse window closes when the session locks unless `keepOnLock`.
  public func create(
    name: String, policy: SSHKeyPolicy = .biometrics, reuseSeconds: Int = 0,
    keepOnLock: Bool = false
  ) async throws -> SSHKey {
    try SSHKey(
      await connection.call(
        SSHKeyCreateRequest.self,
        .init(name: name, policy: policy, reuseSeconds: reuseSeconds, keepOnLock: keepOnLock)))
  }

  /// Every key of this user, by name.
  public func keys() async throws -> [SSHKey] {
    try keys(from: await connection.call(SSHKeyListRequest.self, NoParams()))
  }

  /// The blocking form of `keys()`, for threads that serve a socket.
  public func keysAndWait() throws -> [SSHKey] {
    try keys(from: connection.callAndWait(SSHKeyListRequest.self, NoParams()))
  }

  private func keys(from result: SSHKeyListResult) throws -> [SSHKey] {
    try result.keys.map(SSHKey.init)
  }

  /// Deletes the key named `name`. - Throws: `RPCError` notFound when there is none.
  public func delete(name: String) async throws {
    _ = try await connection.call(SSHKeyDeleteRequest.self, .init(name: name))
  }

  /// Signs `data` with the key named `name` after an evaluation of its policy. The daemon words
  /// the prompt from the data: "ssh: sign in to HOST (SHA256:…) as USER" for a login (with `host`,
  /// the session's host key, its signature over the session identifier, which the daemon checks,
  /// and the host's name from known_hosts), "git/ssh-keygen: sign a file (namespace N)" for an
  /// SSHSIG, else "ssh: sign data with key NAME". Returns the DER ECDSA signature over
  /// SHA-256(data) and the reason shown.
  /// - Throws: the evaluation's `LAError` (userCancel, authenticationFailed, biometryLockout…),
  ///   or `RPCError` (notFound for no such key, invalidParams for a host that did not sign).
  public func sign(_ data: [UInt8], with name: String, host: SSHHostBinding? = nil) async throws
    -> SSHSignature
  {
    try SSHSignature(
      await connection.call(SSHKeySignRequest.self, signParams(data, name: name, host: host)))
  }

  /// The blocking form of `sign`, for threads that serve a socket (the prompt may take as long
  /// as the person does).
  public func signAndWait(_ data: [UInt8], with name: String, host: SSHHostBinding? = nil) throws
    -> SSHSignature
  {
    try SSHSignature(
      connection.callAndWait(SSHKeySignRequest.self, signParams(data, name: name, host: host)))
  }

  /// `signAndWait`, ended early when the one it signs for goes away: `abandoned` is asked every
  /// `checkEvery` while the daemon evaluates, and once it says true the request is cancelled
  /// (`evaluation.cancel {id}`: the daemon ends the evaluation with appCancel at once, so an
  /// abandoned signature never holds the sensor) and this throws that appCancel.
  public func signAndWait(
    _ data: [UInt8], with name: String, host: SSHHostBinding? = nil,
    checkEvery: Duration = .milliseconds(100), abandoned: () -> Bool
  ) throws -> SSHSignature {
    try SSHSignature(
      connection.callAndWait(
        SSHKeySignRequest.self, signParams(data, name: name, host: host),
        checkEvery: checkEvery, abandoned: abandoned))
  }

  private func signParams(_ data: [UInt8], name: String, host: SSHHostBinding?)
    -> SSHKeySignRequest.Params
  {
    SSHKeySignRequest.Params(
      name: name, data: data, hostKey: host?.hostKey, hostKeySignature: host?.signature,
      hostName: host?.name, hostSessionID: host?.sessionID)
  }
}

/// The server an ssh login is for, as `session-bind@openssh.com` told the agent.
public struct SSHHostBinding: Sendable, Equatable {
  /// The server's host key blob.
  public var hostKey: [UInt8]
  /// Its signature (`string algorithm, string signature`) over the session identifier.
  public var signature: [UInt8]
  /// The host's name as the user's known_hosts has it, if a plain line names it.
  public var name: String?
  /// The session identifier the host key signed, for data that names no session of its own (a
  /// remote sudo through a forwarded agent); nil for a login, whose data holds it.
  public var sessionID: [UInt8]? = nil

  /// A binding.
  public init(hostKey: [UInt8], signature: [UInt8], name: String?) {
    self.hostKey = hostKey
    self.signature = signature
    self.name = name
  }
}

/// A signature by an SSH key, with the reason the prompt showed.
public struct SSHSignature: Sendable, Equatable {
  /// The DER ECDSA signature over SHA-256 of the data.
  public var signature: [UInt8]
  /// The reason the daemon showed.
  public var reason: String

  init(_ result: SSHSignResult) {
    signature = result.signature
    reason = result.reason
  }

}
