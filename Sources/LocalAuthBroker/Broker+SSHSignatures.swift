import FoundationEssentials
import LocalAuthProtocol
import RightStore
import SSHAgent

extension Broker {
  /// One `sshKey.sign`: the caller's key, an evaluation of its policy for the caller (reusing a
  /// biometric match of the same key and owner within its window), then the signature in the
  /// daemon. There is no path to a signature without the evaluation. Every outcome is logged.
  func sign(_ request: SSHSignRequest, client: ClientSession) async throws(RPCError) -> JSONValue {
    let uid = client.peer.uid
    let name = request.name
    let record = try await sshKeyRecord(uid: uid, name: name, client: client)
    let fingerprint = SSHPublicKey(x963: record.publicKey.x963).fingerprint
    var entry = SSHSignatureRecord(
      requestID: "", keyName: name, keyFingerprint: fingerprint,
      hostKeyFingerprint: request.hostKey.map(SSHPublicKey.fingerprint(ofBlob:)), ownerUID: uid,
      clientPID: client.peer.pid, outcome: "signed", reason: request.reason)
    do throws(RPCError) {
      let evaluated = try await evaluate(record, reason: request.reason, client: client)
      entry.requestID = evaluated.requestID
      let data = request.data
      // "Last used" is kept to the minute: a burst of signatures (git rebase -S) costs one write.
      let now = Date()
      let stale = record.lastUsedAt.map { now.timeIntervalSince($0) >= 60 } ?? true
      let signature: [UInt8]
      do throws(RPCError) {
        // The signature unseals the key on the store's thread: one admitted store request, as
        // every other, so signatures passing a reuse window cannot crowd others off the store.
        try admitStoreRequest(of: client)
        defer { rights.release(uid: uid) }
        signature = try await rights.lane.run(notFound: "The SSH key was deleted.") { store in
          let signature = try store.sshPrivateKey(for: record).signature(for: data)
          if stale { try store.markSSHKeyUsed(uid: uid, name: name, at: now) }
          return signature
        }
      } catch {
        sshKeys.forgetRecord(uid: uid, name: name)
        throw error
      }
      if stale { sshKeys.used(uid: uid, name: name, at: now) }
      log.sshSignature(entry)
      return [
        "signature": .string(Base64.encode(signature)), "requestID": .string(entry.requestID),
        "reason": .string(request.reason),
      ]
    } catch {
      entry.outcome = error.code.name
      if entry.requestID.isEmpty {
        entry.requestID = error.data["requestID"]?.stringValue ?? ""
      }
      log.sshSignature(entry)
      throw error
    }
  }

  /// The key `name` of `uid`: from the cache of keys signed with, else from the store (one
  /// admitted store request). A cached key deleted by another process fails at its unsealing.
  private func sshKeyRecord(uid: UInt32, name: String, client: ClientSession)
    async throws(RPCError) -> SSHKeyRecord
  {
    if let cached = sshKeys.record(uid: uid, name: name) { return cached }
    try admitStoreRequest(of: client)
    let found: SSHKeyRecord?
    do {
      found = try await rights.lane.run { store in try store.sshKey(uid: uid, name: name) }
      rights.release(uid: uid)
    } catch {
      rights.release(uid: uid)
      throw error
    }
    guard let found else { throw noSuchSSHKey(name) }
    sshKeys.remember(found)
    return found
  }

  /// Runs the evaluation a signature with `record` needs and returns its success.
  private func evaluate(_ record: SSHKeyRecord, reason: String, client: ClientSession)
    async throws(RPCError) -> EvaluationSuccess
  {
    guard let policy = SSHKeyPolicy(rawValue: record.policy)?.policy else {
      throw rights.lane.failure(
        RightStoreError.corrupt("SSH key \(record.name) has policy \(record.policy)"))
    }
    let context = sshKeys.context(for: record)
    let outcome: EvaluationOutcome = await withCheckedContinuation { continuation in
      do throws(RPCError) {
        try startEvaluation(
          client: client, policy: policy, reason: reason, contextID: nil, rpcID: nil,
          context: context
        ) { outcome in continuation.resume(returning: outcome) }
      } catch {
        continuation.resume(returning: .failure(error))
      }
    }
    return try outcome.get()
  }
}
