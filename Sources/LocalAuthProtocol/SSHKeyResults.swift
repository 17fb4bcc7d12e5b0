// The answers of docs/protocol.md's `sshKey.*` methods.

/// How a key's latest signature since the daemon started ended.
public struct SSHKeyLastOutcome: Sendable, Equatable {
  /// "signed", or the error's name.
  public var outcome: String
  /// The error's `data.reason`, if any.
  public var reason: String?
  /// When.
  public var at: WireTimestamp
  /// An outcome.
  public init(outcome: String, reason: String?, at: WireTimestamp) {
    self.outcome = outcome
    self.reason = reason
    self.at = at
  }
  /// `{outcome, reason, at}`.
  public var json: JSONValue {
    ["outcome": .string(outcome), "reason": reason.map(JSONValue.string) ?? .null, "at": at.json]
  }
  /// From its object.
  public init?(json: JSONValue?) {
    guard let object = json?.objectValue, let outcome = object["outcome"]?.stringValue,
      let at = WireTimestamp(json: object["at"])
    else { return nil }
    self.init(outcome: outcome, reason: object["reason"]?.stringValue, at: at)
  }
}

/// One SSH key as the daemon describes it (`sshKey.create`'s answer, an element of
/// `sshKey.list`'s): everything public, nothing private.
public struct SSHKeyEntry: MethodResult, Equatable {
  /// The key's name.
  public var name: String
  /// The OpenSSH public key line.
  public var publicKey: String
  /// `SHA256:…`.
  public var fingerprint: String
  /// "biometrics" or "any".
  public var policy: String
  /// The reuse window, in seconds.
  public var reuseSeconds: Int
  /// When it was made.
  public var createdAt: WireTimestamp
  /// When it last signed.
  public var lastUsedAt: WireTimestamp?
  /// How its latest signature since the daemon started ended.
  public var lastOutcome: SSHKeyLastOutcome?
  /// "tpm" or "file"; "file" from a daemon that does not say.
  public var keyStore: String
  /// Whether the reuse window outlives a lock of the session; false from a daemon that does not say.
  public var keepOnLock = false
  /// An entry.
  public init(
    name: String, publicKey: String, fingerprint: String, policy: String, reuseSeconds: Int,
    createdAt: WireTimestamp, lastUsedAt: WireTimestamp?, lastOutcome: SSHKeyLastOutcome?,
    keyStore: String, keepOnLock: Bool = false
  ) {
    self.keepOnLock = keepOnLock
    self.name = name
    self.publicKey = publicKey
    self.fingerprint = fingerprint
    self.policy = policy
    self.reuseSeconds = reuseSeconds
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
    self.lastOutcome = lastOutcome
    self.keyStore = keyStore
  }
  /// `{name, publicKey, fingerprint, policy, reuseSeconds, createdAt, lastUsedAt, lastOutcome,
  /// keyStore, keepOnLock}`.
  public var json: JSONValue {
    [
      "name": .string(name), "publicKey": .string(publicKey),
      "fingerprint": .string(fingerprint), "policy": .string(policy),
      "reuseSeconds": .int(reuseSeconds), "createdAt": createdAt.json,
      "lastUsedAt": lastUsedAt?.json ?? .null, "lastOutcome": lastOutcome?.json ?? .null,
      "keyStore": .string(keyStore), "keepOnLock": .bool(keepOnLock),
    ]
  }
  /// From its object; nil when a member a key always has is missing.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let name = object["name"]?.stringValue,
      let publicKey = object["publicKey"]?.stringValue,
      let fingerprint = object["fingerprint"]?.stringValue,
      let policy = object["policy"]?.stringValue,
      let reuseSeconds = object["reuseSeconds"]?.intValue,
      let createdAt = WireTimestamp(json: object["createdAt"])
    else { return nil }
    self.init(
      name: name, publicKey: publicKey, fingerprint: fingerprint, policy: policy,
      reuseSeconds: reuseSeconds, createdAt: createdAt,
      lastUsedAt: WireTimestamp(json: object["lastUsedAt"]),
      lastOutcome: SSHKeyLastOutcome(json: object["lastOutcome"]),
      keyStore: object["keyStore"]?.stringValue ?? "file",
      keepOnLock: object["keepOnLock"]?.boolValue ?? false)
  }
}

/// `sshKey.list`'s answer: this uid's keys, by name.
public struct SSHKeyListResult: MethodResult, Equatable {
  /// The keys.
  public var keys: [SSHKeyEntry]
  /// An answer.
  public init(keys: [SSHKeyEntry]) { self.keys = keys }
  /// `{keys: […]}`.
  public var json: JSONValue { ["keys": .array(keys.map(\.json))] }
  /// From `{keys}`; nil when an entry is malformed.
  public init?(json: JSONValue) {
    guard let list = json.objectValue?["keys"]?.arrayValue else { return nil }
    var keys: [SSHKeyEntry] = []
    for value in list {
      guard let key = SSHKeyEntry(json: value) else { return nil }
      keys.append(key)
    }
    self.keys = keys
  }
}

/// `sshKey.sign`'s answer: the signature, the evaluation and the reason the prompt showed.
public struct SSHSignResult: MethodResult, Equatable {
  /// The DER ECDSA signature over SHA-256 of the data.
  public var signature: [UInt8]
  /// The evaluation's requestID.
  public var requestID: String
  /// The reason the daemon showed.
  public var reason: String
  /// An answer.
  public init(signature: [UInt8], requestID: String, reason: String) {
    self.signature = signature
    self.requestID = requestID
    self.reason = reason
  }
  /// `{signature, requestID, reason}`.
  public var json: JSONValue {
    [
      "signature": .string(Base64.encode(signature)), "requestID": .string(requestID),
      "reason": .string(reason),
    ]
  }
  /// From `{signature, requestID, reason}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue,
      let signature = object["signature"]?.stringValue.flatMap(Base64.decode),
      let reason = object["reason"]?.stringValue
    else { return nil }
    self.init(
      signature: signature, requestID: object["requestID"]?.stringValue ?? "", reason: reason)
  }
}
