import FoundationEssentials
import LocalAuthProtocol
import RightsStorage

extension Broker {
  /// An instant on the wire: seconds since 1970 with millisecond precision.
  nonisolated func timestamp(_ date: Date) -> WireTimestamp {
    WireTimestamp(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  /// The wall clock as a date, from the injected clock (the core reads no clock of its own).
  nonisolated func wallDate() -> Date {
    Date(timeIntervalSince1970: Double(services.time.sinceEpoch().milliseconds) / 1000)
  }

  // MARK: handoff.*

  func createHandoff(_ params: HandoffCreateRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> HandoffCreateResult
  {
    let limits = configuration.store
    let (payload, ttl) = try RightsBook.handoffTerms(params, limits: limits)
    let (id, expiresAt) = try await rights.lane.createHandoff(
      uid: client.peer.uid, appID: client.appID, payload: payload, ttl: ttl, now: wallDate(),
      maxPerUID: limits.maxHandoffsPerUID)
    return HandoffCreateResult(handoff: id, expiresAt: timestamp(expiresAt))
  }

  func listHandoffs(client: ClientSession) async throws(RPCError) -> HandoffListResult {
    let handoffs = try await rights.lane.pendingHandoffs(uid: client.peer.uid, now: wallDate())
    return HandoffListResult(
      handoffs: handoffs.map { handoff in
        PendingHandoff(
          handoff: handoff.id, payload: handoff.payload, appID: handoff.owner.appID,
          createdAt: timestamp(handoff.createdAt), expiresAt: timestamp(handoff.expiresAt),
          authorized: handoff.isAuthorized)
      })
  }

  /// handoff.authorize: looks the handoff up on the store's thread, then runs the evaluation; once the user
  /// proved presence, marks it authorized (again on the store's thread) and answers.
  func authorizeHandoff(
    _ params: HandoffAuthorizeRequest.Params, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    let id = try RightsBook.handoffID(params)
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
    let lane = rights.lane
    _ = try lane.checkedStore()
    try rights.admit(uid: client.peer.uid, limits: configuration.store)
    let responder = makeResponder()
    let uid = client.peer.uid
    Task {
      let lookup: Result<HandoffRecord, RPCError>
      do throws(RPCError) {
        lookup = .success(try await lane.liveHandoff(id: id, uid: uid, now: wallDate()))
      } catch {
        lookup = .failure(error)
      }
      self.rights.release(uid: uid)
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
    rights.admitFollowUp(uid: uid, limits: configuration.store)
    let marked: Result<Void, RPCError>
    do throws(RPCError) {
      marked = .success(
        try await rights.lane.authorizeHandoff(id: handoff.id, uid: uid, now: wallDate()))
    } catch {
      marked = .failure(error)
    }
    rights.release(uid: uid)
    if case .failure(let error) = marked {
      responder.respond(.failure(error))
      return
    }
    for other in sessions.clients.values
    where other.peer.uid == uid && other.appID == handoff.owner.appID {
      other.channel.notify(
        Notification.handoffStateChanged,
        StateChangedEvent(member: "handoff", handle: handoff.id, state: RightStateName.authorized)
          .object)
    }
    responder.respond(
      .success(
        HandoffAuthorizeResult(
          handoff: handoff.id, state: RightStateName.authorized, requestID: success.requestID
        )))
  }

  func redeemHandoff(_ params: HandoffRedeemRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> HandoffRedeemResult
  {
    let id = try RightsBook.handoffID(params)
    // Only the creating app redeems; to any other app of the uid the handoff does not exist.
    let payload = try await rights.lane.redeemHandoff(
      id: id, uid: client.peer.uid, appID: client.appID, now: wallDate())
    return HandoffRedeemResult(payload: payload)
  }
}
