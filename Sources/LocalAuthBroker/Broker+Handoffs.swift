import FoundationEssentials
import LocalAuthProtocol
import RightStore

extension Broker {
  /// The longest a handoff may wait for authorization and redemption, in seconds (one day).
  static let maxHandoffTTL = 86_400
  /// The largest handoff payload, in bytes.
  static let maxHandoffPayloadBytes = 16 * 1024
  /// The most pending handoffs one uid may have.
  static let maxPendingHandoffs = 100

  /// Maps a handoff store failure: unknown and foreign ids look alike (notFound); a dead handoff is
  /// invalidContext (it can never be used again), an unauthorized one authenticationFailed (try later).
  private func handoffError(_ error: any Error) -> RPCError {
    switch error as? RightStoreError {
    case .notFound?: return RPCError(.notFound, "No such handoff.", data: ["field": "handoff"])
    case .expired?:
      return RPCError(
        .invalidContext, "The handoff has expired.",
        data: ["reason": "expired", "field": "handoff"])
    case .alreadyRedeemed?:
      return RPCError(
        .invalidContext, "The handoff was already redeemed; it can be redeemed only once.",
        data: ["reason": "alreadyRedeemed", "field": "handoff"])
    case .notAuthorized?:
      return RPCError(
        .authenticationFailed, "The handoff has not been authorized yet.",
        data: ["reason": "notAuthorized", "field": "handoff"])
    default: return storeError(error)
    }
  }

  /// Runs a handoff store call, mapping its failures.
  private func withHandoffs<T>(_ body: (RightStore) throws -> T) throws(RPCError) -> T {
    let store = try store()
    do { return try body(store) } catch { throw handoffError(error) }
  }

  /// Runs a handoff store write on the store's own thread, mapping its failures.
  private func withHandoffsOffLoop<T: Sendable>(
    _ body: @escaping @Sendable (RightStore) throws -> T
  )
    async throws(RPCError) -> T
  {
    let store = try store()
    do {
      return try await storeWorker.perform { try body(store) }
    } catch {
      throw handoffError(error)
    }
  }

  /// An instant on the wire: seconds since 1970 with millisecond precision.
  private func timestamp(_ date: Date) -> JSONValue {
    .number(JSONNumber((date.timeIntervalSince1970 * 1000).rounded() / 1000))
  }

  /// The uid's live handoff with this id, or nil when it is unknown, foreign, expired or redeemed.
  private func pendingHandoff(_ id: String, of client: ClientSession, now: Date) throws(RPCError)
    -> HandoffRecord?
  {
    let uid = client.peer.uid
    return try withHandoffs { store in try store.pendingHandoffs(uid: uid, now: now) }.first {
      $0.id == id
    }
  }

  /// The precise error for a handoff that is not pending: the store's live check throws notFound,
  /// expired or alreadyRedeemed before it could change anything (a handoff not pending at `now` is
  /// never live at the same `now`).
  private func deadHandoffError(_ id: String, of client: ClientSession, now: Date) -> RPCError {
    let uid = client.peer.uid
    do {
      try withHandoffs { store in try store.authorizeHandoff(id: id, uid: uid, now: now) }
    } catch {
      return error
    }
    return RPCError(.notFound, "No such handoff.", data: ["field": "handoff"])
  }

  // MARK: handoff.*

  func createHandoff(_ params: ParamReader, client: ClientSession) async throws(RPCError)
    -> JSONValue
  {
    let payload = try params.base64("payload", maxBytes: Self.maxHandoffPayloadBytes)
    guard let ttl = try params.optionalInt("ttl", in: 1...Self.maxHandoffTTL) else {
      throw .invalidParams("ttl", "is required (seconds, 1…\(Self.maxHandoffTTL))")
    }
    let (uid, appID, now) = (client.peer.uid, client.appID, Date())
    let pending = try withHandoffs { store in try store.pendingHandoffs(uid: uid, now: now).count }
    guard pending < Self.maxPendingHandoffs else {
      throw RPCError(
        .queueFull, "Too many pending handoffs for this user (\(Self.maxPendingHandoffs)).",
        data: ["reason": "tooManyHandoffs"])
    }
    let expiresAt = now.addingTimeInterval(Double(ttl))
    let id = try await withHandoffsOffLoop { store in
      try store.createHandoff(
        uid: uid, appID: appID, payload: payload, expiresAt: expiresAt, now: now)
    }
    return ["handoff": .string(id), "expiresAt": timestamp(expiresAt)]
  }

  func listHandoffs(client: ClientSession) throws(RPCError) -> JSONValue {
    let uid = client.peer.uid
    let handoffs = try withHandoffs { store in try store.pendingHandoffs(uid: uid, now: Date()) }
    return [
      "handoffs": .array(
        handoffs.map { handoff in
          [
            "handoff": .string(handoff.id), "payload": .string(Base64.encode(handoff.payload)),
            "appID": .string(handoff.owner.appID), "createdAt": timestamp(handoff.createdAt),
            "expiresAt": timestamp(handoff.expiresAt), "authorized": .bool(handoff.isAuthorized),
          ]
        })
    ]
  }

  func authorizeHandoff(
    _ params: ParamReader, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> RightsAnswer {
    let id = try params.nonEmptyString("handoff")
    let policy = try params.policy()
    let reason = try params.nonEmptyString("localizedReason")
    let now = Date()
    guard let handoff = try pendingHandoff(id, of: client, now: now) else {
      throw deadHandoffError(id, of: client, now: now)
    }
    // A handoff is authorized by a person at an interactive client, every time: never through a
    // non-interactive client, never by reusing an earlier success.
    guard client.interactive else {
      throw RPCError(
        .notInteractive, "A handoff is authorized only by an interactive client.",
        data: ["field": "handoff"])
    }
    return try startEvaluation(
      client: client, policy: policy, reason: reason,
      contextID: try params.optionalString("context"), rpcID: rpcID,
      makeResponder: makeResponder, allowReuse: false
    ) { outcome in self.finishHandoffAuthorization(handoff, client: client, outcome) }
  }

  /// Marks the handoff authorized once the user proved presence, and tells the creator's app.
  private func finishHandoffAuthorization(
    _ handoff: HandoffRecord, client: ClientSession, _ outcome: Result<JSONValue, RPCError>
  ) -> Result<JSONValue, RPCError> {
    guard case .success(let value) = outcome else { return outcome }
    let uid = client.peer.uid
    do {
      try withHandoffs { store in try store.authorizeHandoff(id: handoff.id, uid: uid, now: Date())
      }
    } catch {
      return .failure(error)
    }
    for other in clients.values where other.peer.uid == uid && other.appID == handoff.owner.appID {
      other.channel.notify(
        Notification.handoffStateChanged,
        ["handoff": .string(handoff.id), "state": .string(RightStateName.authorized)])
    }
    return .success([
      "handoff": .string(handoff.id), "state": .string(RightStateName.authorized),
      "requestID": value.objectValue?["requestID"],
    ])
  }

  func redeemHandoff(_ params: ParamReader, client: ClientSession) async throws(RPCError)
    -> JSONValue
  {
    let id = try params.nonEmptyString("handoff")
    let (uid, now) = (client.peer.uid, Date())
    if let handoff = try pendingHandoff(id, of: client, now: now),
      handoff.owner.appID != client.appID
    {
      // Only the creating app redeems; to any other app of the uid the handoff does not exist.
      throw RPCError(.notFound, "No such handoff.", data: ["field": "handoff"])
    }
    let payload = try await withHandoffsOffLoop { store in
      try store.redeemHandoff(id: id, uid: uid, now: now)
    }
    return ["payload": .string(Base64.encode(payload))]
  }
}
