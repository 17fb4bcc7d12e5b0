import FoundationEssentials
import LocalAuthProtocol
import RightStore

extension Broker {
  /// Maps a handoff store failure: unknown and foreign ids look alike (notFound); a dead handoff is
  /// invalidContext (it can never be used again), an unauthorized one authenticationFailed (try later).
  func handoffError(_ error: any Error) -> RPCError {
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

  /// Runs a handoff store call on the store's own thread, mapping its failures.
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
  nonisolated func timestamp(_ date: Date) -> JSONValue {
    .number(JSONNumber((date.timeIntervalSince1970 * 1000).rounded() / 1000))
  }

  /// The `handoff` param: an id, refused when it holds a NUL byte.
  private func handoffID(_ params: some HandoffParams) throws(RPCError) -> String {
    let id = try params.handoff()
    try refuseNUL(id, field: "handoff")
    return id
  }

  // MARK: handoff.*

  func createHandoff(_ params: HandoffCreateRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> JSONValue
  {
    let limits = configuration.store
    let payload = try params.payload()
    guard payload.count <= limits.maxHandoffPayloadBytes else {
      throw tooLargeError(
        "payload", key: StoreLimits.Key.maxHandoffPayloadBytes, max: limits.maxHandoffPayloadBytes)
    }
    let range = limits.minHandoffTTLSeconds...limits.maxHandoffTTLSeconds
    let ttl: Int?
    do {
      ttl = try params.ttl(in: range)
    } catch {
      // An integer outside the range names the bound it passed; anything else is plain invalid params.
      guard let given = try? params.ttl(in: Int.min...Int.max) else { throw error }
      throw limitParamError(
        error,
        key: given < range.lowerBound
          ? StoreLimits.Key.minHandoffTTL : StoreLimits.Key.maxHandoffTTL)
    }
    guard let ttl else {
      throw .invalidParams("ttl", "is required (seconds, \(range.lowerBound)…\(range.upperBound))")
    }
    let (uid, appID, now) = (client.peer.uid, client.appID, Date())
    let expiresAt = now.addingTimeInterval(Double(ttl))
    let maxHandoffs = limits.maxHandoffsPerUID
    let id = try await withHandoffsOffLoop { store in
      try store.createHandoff(
        uid: uid, appID: appID, payload: payload, expiresAt: expiresAt, now: now,
        maxHandoffsPerUID: maxHandoffs)
    }
    return ["handoff": .string(id), "expiresAt": timestamp(expiresAt)]
  }

  func listHandoffs(client: ClientSession) async throws(RPCError) -> JSONValue {
    let uid = client.peer.uid
    let handoffs = try await withHandoffsOffLoop { store in
      try store.pendingHandoffs(uid: uid, now: Date())
    }
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

  /// handoff.authorize: looks the handoff up on the store's thread, then runs the evaluation; once the user
  /// proved presence, marks it authorized (again on the store's thread) and answers.
  func authorizeHandoff(
    _ params: HandoffAuthorizeRequest.Params, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    let id = try handoffID(params)
    let policy = try params.policy()
    let reason = try params.localizedReason()
    let contextID = try params.context()
    // A handoff is authorized by a person at an interactive client, every time: never through a
    // non-interactive client, never by reusing an earlier success.
    guard client.interactive else {
      throw RPCError(
        .notInteractive, "A handoff is authorized only by an interactive client.",
        data: ["field": "handoff"])
    }
    _ = try store()
    try admitStoreRequest(of: client)
    let responder = makeResponder()
    let uid = client.peer.uid
    Task {
      let lookup: Result<HandoffRecord, RPCError>
      do throws(RPCError) {
        lookup = .success(
          try await self.withHandoffsOffLoop { store in
            try store.liveHandoff(id: id, uid: uid, now: Date())
          })
      } catch {
        lookup = .failure(error)
      }
      self.storeBacklog.release(uid: uid)
      guard client.connected else { return }
      switch lookup {
      case .failure(let error): responder.respond(.failure(error))
      case .success(let handoff):
        do throws(RPCError) {
          try self.startEvaluation(
            client: client, policy: policy, reason: reason, contextID: contextID, rpcID: rpcID,
            allowReuse: false
          ) { outcome in
            Task {
              await self.completeHandoffAuthorization(
                handoff, client: client, outcome, responder: responder)
            }
          }
        } catch {
          responder.respond(.failure(error))
        }
      }
    }
    return nil
  }

  /// Marks the handoff authorized once the user proved presence, tells the creator's app, and answers.
  func completeHandoffAuthorization(
    _ handoff: HandoffRecord, client: ClientSession, _ outcome: EvaluationOutcome,
    responder: any Responder
  ) async {
    let success: EvaluationSuccess
    switch outcome {
    case .success(let value): success = value
    case .failure(let error):
      responder.respond(.failure(error))
      return
    }
    let uid = client.peer.uid
    // Already admitted with the request: this last step of it is never refused as busy.
    _ = storeBacklog.admit(uid: uid, limits: configuration.store, force: true)
    let marked: Result<Void, RPCError>
    do throws(RPCError) {
      marked = .success(
        try await withHandoffsOffLoop { store in
          try store.authorizeHandoff(id: handoff.id, uid: uid, now: Date())
        })
    } catch {
      marked = .failure(error)
    }
    storeBacklog.release(uid: uid)
    if case .failure(let error) = marked {
      responder.respond(.failure(error))
      return
    }
    for other in clients.values where other.peer.uid == uid && other.appID == handoff.owner.appID {
      other.channel.notify(
        Notification.handoffStateChanged,
        ["handoff": .string(handoff.id), "state": .string(RightStateName.authorized)])
    }
    responder.respond(
      .success([
        "handoff": .string(handoff.id), "state": .string(RightStateName.authorized),
        "requestID": .string(success.requestID),
      ]))
  }

  func redeemHandoff(_ params: HandoffRedeemRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> JSONValue
  {
    let id = try handoffID(params)
    let (uid, appID, now) = (client.peer.uid, client.appID, Date())
    // Only the creating app redeems; to any other app of the uid the handoff does not exist.
    let payload = try await withHandoffsOffLoop { store in
      try store.redeemHandoff(id: id, uid: uid, appID: appID, now: now)
    }
    return ["payload": .string(Base64.encode(payload))]
  }
}
