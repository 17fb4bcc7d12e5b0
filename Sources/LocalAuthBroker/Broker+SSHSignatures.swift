import FoundationEssentials
import LocalAuthProtocol
import RightStore
import SSHAgent
import Synchronization

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
      entry.requestID = evaluated.objectValue?["requestID"]?.stringValue ?? ""
      let data = request.data
      // "Last used" is kept to the minute: a burst of signatures (git rebase -S) costs one write.
      let now = Date()
      let stale = record.lastUsedAt.map { now.timeIntervalSince($0) >= 60 } ?? true
      let signature: [UInt8]
      do throws(RPCError) {
        // The signature unseals the key on the store's thread: one admitted store request, as
        // every other, so signatures passing a reuse window cannot crowd others off the store.
        try admitStoreRequest(of: client)
        defer { storeBacklog.release(uid: uid) }
        signature = try await withStoreOffLoop(notFound: "The SSH key was deleted.") { store in
          let signature = try store.sshPrivateKey(for: record).signature(for: data)
          if stale { try store.markSSHKeyUsed(uid: uid, name: name, at: now) }
          return signature
        }
      } catch {
        sshKeyRecords["\(uid)/\(name)"] = nil
        throw error
      }
      if stale { sshKeyRecords["\(uid)/\(name)"]?.lastUsedAt = now }
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
    if let cached = sshKeyRecords["\(uid)/\(name)"] { return cached }
    try admitStoreRequest(of: client)
    let found: SSHKeyRecord?
    do {
      found = try await withStoreOffLoop { store in try store.sshKey(uid: uid, name: name) }
      storeBacklog.release(uid: uid)
    } catch {
      storeBacklog.release(uid: uid)
      throw error
    }
    guard let found else { throw noSuchSSHKey(name) }
    sshKeyRecords["\(uid)/\(name)"] = found
    return found
  }

  /// Runs the evaluation a signature with `record` needs and returns its success value.
  private func evaluate(_ record: SSHKeyRecord, reason: String, client: ClientSession)
    async throws(RPCError) -> JSONValue
  {
    guard let policy = SSHKeyPolicy(rawValue: record.policy)?.policy else {
      throw storeError(
        RightStoreError.corrupt("SSH key \(record.name) has policy \(record.policy)"))
    }
    let context = sshKeyContext(record)
    let outcome: Result<JSONValue, RPCError> = await withCheckedContinuation { continuation in
      let responder = ContinuationResponder(continuation: continuation)
      do throws(RPCError) {
        if let immediate = try startEvaluation(
          client: client, policy: policy, reason: reason, contextID: nil, rpcID: nil,
          makeResponder: { responder }, context: context)
        {
          responder.respond(immediate)
        }
      } catch {
        responder.respond(.failure(error))
      }
    }
    return try outcome.get()
  }

  /// The daemon's context for this key and owner, whose reuse grant lets a signature within the
  /// key's window pass without a capture. A key deleted and made again under the same name has a
  /// new fingerprint, so it never inherits a grant. While the shared context is busy, a signature
  /// gets a context of its own (it may not reuse, and grants nothing to the others).
  private func sshKeyContext(_ record: SSHKeyRecord) -> AuthContext {
    let key =
      "\(record.uid)/\(record.name)/\(SSHPublicKey(x963: record.publicKey.x963).fingerprint)"
    let options = ContextOptions(reuseDuration: Double(record.reuseSeconds))
    if let context = sshKeyContexts[key] {
      if context.inFlight == nil { return context }
      return AuthContext(id: "ctx-" + makeUUID().lowercased(), options: options, explicit: false)
    }
    let context = AuthContext(
      id: "ctx-" + makeUUID().lowercased(), options: options, explicit: false)
    sshKeyContexts[key] = context
    return context
  }
}

/// Hands an evaluation's outcome to the task that waits for it, once.
private final class ContinuationResponder: Responder {
  private let continuation: CheckedContinuation<Result<JSONValue, RPCError>, Never>
  private let resumed = Mutex(false)

  init(continuation: CheckedContinuation<Result<JSONValue, RPCError>, Never>) {
    self.continuation = continuation
  }

  func respond(_ result: Result<JSONValue, RPCError>) {
    let first = resumed.withLock { resumed in
      defer { resumed = true }
      return !resumed
    }
    if first { continuation.resume(returning: result) }
  }
}
