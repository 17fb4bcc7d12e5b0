import FoundationEssentials
import LocalAuthProtocol
import RightsStorage
import SSHAgent

extension Broker {
  /// The longest SSH key name, in bytes.
  static let maxSSHKeyNameBytes = 64
  /// The longest reuse window an SSH key may have, in seconds.
  static let maxSSHKeyReuseSeconds = 3600
  /// The largest data an SSH key signs (OpenSSH's agent takes messages up to 256 KiB).
  static let maxSSHSignDataBytes = 256 * 1024

  /// The routes of the `sshKey.*` methods; store work and a signature's evaluation answer later.
  static var sshKeyRoutes: [MethodRoute] {
    [
      .deferred(SSHKeyCreateRequest.self) {
        (broker, params, _, client, makeResponder) throws(RPCError) in
        try broker.createSSHKey(params, client: client, makeResponder)
      },
      .deferred(SSHKeyListRequest.self) { (broker, _, _, client, makeResponder) throws(RPCError) in
        let (uid, lane) = (client.peer.uid, broker.rights.lane)
        return try broker.answerAfterStore(client, makeResponder) {
          () async throws(RPCError) -> any MethodResult in
          let keys = try await lane.run { store in try store.sshKeys(uid: uid) }
          let outcomes = await broker.sshKeyOutcomes(uid: uid, names: keys.map(\.name))
          return SSHKeyListResult(
            keys: zip(keys, outcomes).map { key, outcome in
              broker.sshKeyEntry(key, lastOutcome: outcome)
            }
          )
        }
      },
      .deferred(SSHKeyDeleteRequest.self) {
        (broker, params, _, client, makeResponder) throws(RPCError) in
        let (uid, name) = (client.peer.uid, try broker.sshKeyName(params))
        return try broker.answerAfterStore(client, makeResponder) {
          () async throws(RPCError) -> any MethodResult in
          try await broker.deleteSSHKey(uid: uid, name: name)
        }
      },
      .deferred(SSHKeySignRequest.self) {
        (broker, params, request, client, makeResponder) throws(RPCError) in
        try broker.startSigning(params, client: client, rpcID: request.id, makeResponder)
      },
    ]
  }

  /// `sshKey.create`: a new key of the caller's uid, made on the store's thread.
  private func createSSHKey(
    _ params: SSHKeyCreateRequest.Params, client: ClientSession,
    _ makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    let (name, policy, reuse, keepOnLock) = try (
      sshKeyName(params), sshKeyPolicy(params),
      params.reuseSeconds(in: 0...Self.maxSSHKeyReuseSeconds) ?? 0, params.keepOnLock() ?? false
    )
    let (uid, limit, lane) = (client.peer.uid, configuration.store.maxSSHKeysPerUID, rights.lane)
    return try answerAfterStore(client, makeResponder) {
      () async throws(RPCError) -> any MethodResult in
      let record = try await lane.run { store in
        try store.createSSHKey(
          uid: uid, name: name, policy: policy.rawValue, reuseSeconds: reuse,
          keepOnLock: keepOnLock, maxKeysPerUID: limit)
      }
      return self.sshKeyEntry(record)
    }
  }

  /// `sshKey.sign`: the key's evaluation then the signature, answered when both are done. The
  /// evaluation carries the request's JSON-RPC id, so `evaluation.cancel {id}` ends it (the agent
  /// sends it when its own client goes away).
  private func startSigning(
    _ params: SSHKeySignRequest.Params, client: ClientSession, rpcID: RequestID?,
    _ makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    var request = try SSHSignRequest(params, broker: self)
    request.rpcID = rpcID
    _ = try rights.lane.checkedStore()
    let responder = makeResponder()
    Task {
      let answer: BrokerAnswer
      do throws(RPCError) {
        answer = .success(try await self.sign(request, client: client))
      } catch {
        answer = .failure(error)
      }
      responder.respond(answer)
    }
    return nil
  }

  /// Deletes a key and forgets its reuse grant.
  private func deleteSSHKey(uid: UInt32, name: String) async throws(RPCError) -> EmptyResult {
    guard try await rights.lane.run({ store in try store.deleteSSHKey(uid: uid, name: name) })
    else { throw noSuchSSHKey(name) }
    device.sshKeys.forget(uid: uid, name: name)
    return EmptyResult()
  }

  /// How each of `uid`'s keys `names` last ended a signature since start.
  func sshKeyOutcomes(uid: UInt32, names: [String]) -> [SSHKeyOutcome?] {
    names.map { device.sshKeys.lastOutcome(uid: uid, name: $0) }
  }

  /// The wire form of a key: never anything private. `lastOutcome`: how its latest signature since
  /// the daemon started ended, `{outcome, reason?, at}`, or null.
  nonisolated func sshKeyEntry(_ record: SSHKeyRecord, lastOutcome: SSHKeyOutcome? = nil)
    -> SSHKeyEntry
  {
    let key = SSHPublicKey(x963: record.publicKey.x963)
    return SSHKeyEntry(
      name: record.name, publicKey: key.line(comment: record.name),
      fingerprint: key.fingerprint, policy: record.policy, reuseSeconds: record.reuseSeconds,
      createdAt: timestamp(record.createdAt), lastUsedAt: record.lastUsedAt.map(timestamp),
      lastOutcome: lastOutcome.map { outcome in
        SSHKeyLastOutcome(
          outcome: outcome.outcome, reason: outcome.reason, at: timestamp(outcome.at))
      },
      keyStore: record.residence.rawValue, keepOnLock: record.keepOnLock)
  }

  /// The `name` param: 1…64 bytes of letters, digits and `._-@+` (it is the public key line's
  /// comment and appears in prompts, so nothing a terminal or a log would read as structure).
  func sshKeyName(_ params: some SSHKeyParams) throws(RPCError) -> String {
    let name = try params.name()
    guard name.utf8.count <= Self.maxSSHKeyNameBytes,
      name.utf8.allSatisfy({ byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || "._-@+".utf8.contains(byte)
      })
    else {
      throw .invalidParams(
        "name",
        "must be 1…\(Self.maxSSHKeyNameBytes) bytes of letters, digits and . _ - @ +")
    }
    return name
  }

  private func sshKeyPolicy(_ params: SSHKeyCreateRequest.Params) throws(RPCError) -> SSHKeyPolicy {
    guard let name = try params.policy() else { return .biometrics }
    guard let policy = SSHKeyPolicy(rawValue: name) else {
      throw .invalidParams("policy", "must be biometrics or any")
    }
    return policy
  }

  /// The notFound error for a key name; it never says whether another user has such a key.
  nonisolated func noSuchSSHKey(_ name: String) -> RPCError {
    RPCError(.notFound, "No SSH key named \(name).", data: ["field": "name"])
  }
}

/// The checked params of one `sshKey.sign`, and the reason the daemon words from the data.
struct SSHSignRequest: Sendable {
  /// The longest host name, in bytes (a DNS name is at most 253; `[host]:port` a little more).
  static let maxHostNameBytes = 255

  let name: String
  let data: [UInt8]
  /// The host key the login is bound to, checked against the data; nil for anything else.
  let hostKey: [UInt8]?
  /// What the prompt says, worded here from the data, never taken from the caller.
  let reason: String
  /// What is signed, for the prompt agent (`ssh` in agent.prompt), from the same facts.
  let subject: AgentSSHSubject
  /// The request's JSON-RPC id, which its evaluation carries (for `evaluation.cancel {id}`).
  var rpcID: RequestID? = nil

  init(_ params: SSHKeySignRequest.Params, broker: isolated Broker) throws(RPCError) {
    name = try broker.sshKeyName(params)
    data = try params.data(maxBytes: Broker.maxSSHSignDataBytes)
    let signed = SignedData(data)
    if signed == .malformedLogin {
      throw .invalidParams(
        "data",
        "is framed as an SSH login (session identifier, SSH_MSG_USERAUTH_REQUEST) but does not parse as a publickey login; refused"
      )
    }
    let hostKey = try params.hostKey(maxBytes: AgentCodec.maxKeyBlobBytes)
    var names = HostNames()
    if let hostKey {
      let signature = try params.hostKeySignature(maxBytes: AgentCodec.maxKeyBlobBytes)
      let session = try params.hostSessionID(maxBytes: AgentCodec.maxSessionIDBytes)
      if let refusal = SignReason.hostKeyRefusal(
        hostKey, signature: signature, for: signed, boundSessionID: session)
      {
        throw .invalidParams("hostKey", "cannot vouch for this signature: \(refusal)")
      }
      // The caller's name is its word only: shown as unverified, or as a warning beside the name
      // the system's known hosts give this key.
      let claimed = try broker.checkedName(params.hostName(), field: "hostName")
      if let claimed, claimed.utf8.count > Self.maxHostNameBytes || claimed.isEmpty {
        throw .invalidParams("hostName", "must be 1…\(Self.maxHostNameBytes) bytes")
      }
      names = HostNames(
        verified: broker.services.hostNames.verifiedName(for: hostKey), claimed: claimed)
    }
    self.hostKey = hostKey
    reason = SignReason.text(for: signed, hostKey: hostKey, names: names, keyName: name)
    subject = Self.subject(of: signed, hostKey: hostKey, verifiedHost: names.verified, key: name)
  }

  /// What is signed: a login's host only as the daemon verified it (the system's known hosts, and
  /// the fingerprint of the host key that signed the session), a file signature's namespace.
  static func subject(of signed: SignedData, hostKey: [UInt8]?, verifiedHost: String?, key: String)
    -> AgentSSHSubject
  {
    switch signed {
    case .userAuthentication:
      return AgentSSHSubject(
        kind: .login, key: key, host: hostKey == nil ? nil : verifiedHost,
        hostKey: hostKey.map(SSHPublicKey.fingerprint(ofBlob:)))
    case .fileSignature(let namespace):
      return AgentSSHSubject(kind: .file, key: key, namespace: namespace)
    case .remoteSudo:
      return AgentSSHSubject(kind: .remoteSudo, key: key)
    case .malformedLogin, .other:
      return AgentSSHSubject(kind: .data, key: key)
    }
  }
}
