import FoundationEssentials
import LocalAuthProtocol
import RightsStorage
import SSHAgent

extension Broker {
  /// One `sshKey.sign`: the caller's key, an evaluation of its policy for the caller (reusing a
  /// biometric match of the same key and owner within its window), then the signature in the
  /// daemon. There is no path to a signature without the evaluation. Every outcome is logged.
  func sign(_ request: SSHSignRequest, client: ClientSession) async throws(RPCError)
    -> SSHSignResult
  {
    let uid = client.peer.uid
    let name = request.name
    let record = try await sshKeyRecord(uid: uid, name: name, client: client)
    // No prompt for a signature no key can give (the device key sealed to another TPM).
    if let unavailable = device.keyStore?.unavailable {
      throw StoreFailure.keyUnavailable(unavailable)
    }
    let fingerprint = SSHPublicKey(x963: record.publicKey.x963).fingerprint
    var entry = SSHSignatureRecord(
      requestID: "", keyName: name, keyFingerprint: fingerprint,
      hostKeyFingerprint: request.hostKey.map(SSHPublicKey.fingerprint(ofBlob:)), ownerUID: uid,
      clientPID: client.peer.pid, outcome: "signed", reason: request.reason)
    // Whether the evaluation ended at once (refused, or reused, with no prompt): its entry then
    // counts against the uid's at-once log budget, as its evaluation's line does.
    var atOnce = true
    do throws(RPCError) {
      let (outcome, endedAtOnce) = try await evaluate(
        record, reason: request.reason, subject: request.subject, rpcID: request.rpcID,
        client: client)
      atOnce = endedAtOnce
      let evaluated = try outcome.get()
      entry.requestID = evaluated.requestID
      let data = request.data
      // "Last used" is kept to the minute: a burst of signatures (git rebase -S) costs one write.
      let now = wallDate()
      let stale = record.lastUsedAt.map { now.timeIntervalSince($0) >= 60 } ?? true
      let signature: [UInt8]
      do throws(RPCError) {
        // The signature unseals the key, or asks the TPM, on the store's thread: one admitted
        // store request, as
        // every other, so signatures passing a reuse window cannot crowd others off the store.
        try admitStoreRequest(of: client)
        defer { rights.release(uid: uid) }
        signature = try await rights.lane.run(notFound: "The SSH key was deleted.") { store in
          let signature = try store.sshSignature(for: record, of: data)
          if stale { try store.markSSHKeyUsed(uid: uid, name: name, at: now) }
          return signature
        }
      } catch {
        device.sshKeys.forgetRecord(uid: uid, name: name)
        throw error
      }
      if stale { device.sshKeys.used(uid: uid, name: name, at: now) }
      device.sshKeys.noteOutcome(uid: uid, name: name, SSHKeyOutcome(outcome: "signed", at: now))
      logSignature(entry, atOnce: atOnce)
      return SSHSignResult(
        signature: signature, requestID: entry.requestID, reason: request.reason)
    } catch {
      entry.outcome = error.code.name
      // Why it was refused, for `ssh-key list` as for the journal (not only the agent's stderr).
      device.sshKeys.noteOutcome(
        uid: uid, name: name,
        SSHKeyOutcome(
          outcome: error.code.name, reason: error.data["reason"]?.stringValue, at: wallDate()))
      if entry.requestID.isEmpty {
        entry.requestID = error.data["requestID"]?.stringValue ?? ""
      }
      logSignature(entry, atOnce: atOnce)
      throw error
    }
  }

  /// Logs a signature's entry: one line each, but for signatures whose evaluation ended at once
  /// past their uid's `AtOnceLogBudget`, which are counted and reported together (an
  /// `sshKey.sign` flood by one uid must not spend the journal's rate limit for everyone).
  private func logSignature(_ entry: SSHSignatureRecord, atOnce: Bool) {
    let now = services.time.now()
    logSuppressedAtOnce(now: now)
    if !atOnce
      || observability.atOnceLogBudget.admit(
        uid: entry.ownerUID, outcome: "sshKey.sign \(entry.outcome)", now: now)
    {
      services.log.sshSignature(entry)
    }
  }

  /// The key `name` of `uid`: from the cache of keys signed with, else from the store (one
  /// admitted store request). A cached key deleted by another process fails at its unsealing.
  private func sshKeyRecord(uid: UInt32, name: String, client: ClientSession)
    async throws(RPCError) -> SSHKeyRecord
  {
    if let cached = device.sshKeys.record(uid: uid, name: name) { return cached }
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
    device.sshKeys.remember(found)
    return found
  }

  /// Runs the evaluation a signature with `record` needs and returns its outcome, and whether it
  /// ended at once (answered while it was being started: refused or reused, never queued or shown).
  private func evaluate(
    _ record: SSHKeyRecord, reason: String, subject: AgentSSHSubject, rpcID: RequestID?,
    client: ClientSession
  ) async throws(RPCError) -> (EvaluationOutcome, atOnce: Bool) {
    guard let policy = SSHKeyPolicy(rawValue: record.policy)?.policy else {
      throw rights.lane.failure(
        RightStoreError.corrupt("SSH key \(record.name) has policy \(record.policy)"))
    }
    let context = device.sshKeys.context(for: record, random: services.random)
    let starting = StartingFlag()
    let (outcome, atOnce): (EvaluationOutcome, Bool) = await withCheckedContinuation {
      continuation in
      do throws(RPCError) {
        try startEvaluation(
          client: client, policy: policy, reason: reason, contextID: nil, rpcID: rpcID,
          context: context, ssh: subject
        ) { outcome in continuation.resume(returning: (outcome, starting.isStarting)) }
      } catch {
        continuation.resume(returning: (.failure(error), true))
      }
      starting.isStarting = false
    }
    return (outcome, atOnce)
  }
}

/// Whether an evaluation is still being started: its handler, called meanwhile, answered at once.
/// `@unchecked Sendable`: set and read on the broker's executor only.
private final class StartingFlag: @unchecked Sendable {
  var isStarting = true
}
