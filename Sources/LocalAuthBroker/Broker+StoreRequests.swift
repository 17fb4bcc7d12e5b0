import LocalAuthProtocol
import RightStore

extension Broker {
  /// Admits one store request of `client`, or refuses it with queueFull naming the limit it hit
  /// (`data.reason` "storeBusy", `data.limit` the configuration key, `data.max` its value). Nothing is queued
  /// for a refused request.
  func admitStoreRequest(of client: ClientSession) throws(RPCError) {
    guard
      let refusal = storeBacklog.admit(uid: client.peer.uid, limits: configuration.store)
    else { return }
    let whose =
      refusal.key == StoreLimits.Key.maxRequestsPerUID ? "for this user" : "for all users together"
    throw RPCError(
      .queueFull,
      "The rights store is busy: \(refusal.limit) requests \(whose) are already waiting "
        + "(\(refusal.key)); retry after some are answered.",
      data: ["reason": "storeBusy", "limit": .string(refusal.key), "max": .int(refusal.limit)])
  }

  /// Admits a store request of `client` and answers it through the responder once `work` (which waits on the
  /// store's thread) is done, so the event loop goes on serving everyone else meanwhile. Throws at once when
  /// the store is unavailable or the request is not admitted.
  func answerAfterStore(
    _ client: ClientSession, _ makeResponder: () -> any Responder,
    _ work: @escaping @Sendable () async throws(RPCError) -> JSONValue
  ) throws(RPCError) -> MethodAnswer {
    _ = try store()
    try admitStoreRequest(of: client)
    let responder = makeResponder()
    let uid = client.peer.uid
    Task {
      let answer: Result<JSONValue, RPCError>
      do throws(RPCError) {
        answer = .success(try await work())
      } catch {
        answer = .failure(error)
      }
      self.storeBacklog.release(uid: uid)
      responder.respond(answer)
    }
    return nil
  }

  /// Refuses text that would key or seal a stored row when it holds a NUL byte (invalidParams naming `field`).
  func refuseNUL(_ text: String, field: String) throws(RPCError) {
    guard !text.utf8.contains(0) else { throw .invalidParams(field, "must not contain a NUL byte") }
  }

  /// An invalid-params error about a value past a configured limit, with the limit's key in `data.limit`.
  func limitParamError(_ error: RPCError, key: String) -> RPCError {
    var error = error
    error.data["limit"] = .string(key)
    return error
  }

  /// Invalid params for a value larger than a configured size limit, naming the field and the limit.
  func tooLargeError(_ field: String, key: String, max: Int) -> RPCError {
    RPCError(
      .invalidParams, "Invalid params: '\(field)' must be at most \(max) bytes (\(key)).",
      data: ["field": .string(field), "limit": .string(key), "max": .int(max)])
  }

  /// The store's refusal at a per-uid count: limitExceeded naming the limit, with a reason.
  func quotaError(_ quota: StoreQuota, _ limit: Int) -> RPCError {
    let (key, what, reason) =
      switch quota {
      case .handoffsPerUID:
        (StoreLimits.Key.maxHandoffsPerUID, "too many handoffs for this user", "tooManyHandoffs")
      case .savedRightsPerUID:
        (
          StoreLimits.Key.maxSavedRightsPerUID, "too many saved rights for this user",
          "tooManySavedRights"
        )
      case .sshKeysPerUID:
        (StoreLimits.Key.maxSSHKeysPerUID, "too many SSH keys for this user", "tooManySSHKeys")
      }
    var error = RPCError.limit(key, limit, what)
    error.data["reason"] = .string(reason)
    return error
  }
}
