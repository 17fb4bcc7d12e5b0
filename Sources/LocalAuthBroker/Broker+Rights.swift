import LocalAuthProtocol

extension Broker {
  /// The routes of the rights, store, key, secret and handoff methods (docs/protocol.md, "Rights
  /// and keys"). Store work answers later, off the loop (`answerAfterStore`).
  static var rightsRoutes: [MethodRoute] {
    [
      .answer(RightCreateRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.createRight(params, client: client)
      },
      .answer(RightCheckCanAuthorizeRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.checkCanAuthorize(params, client: client)
      },
      .answer(RightDeauthorizeRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.deauthorizeRight(params, client: client)
      },
      .answer(RightStateRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.rightState(params, client: client)
      },
      .answer(RightReleaseRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.releaseRight(params, client: client)
      },
      .answer(PublicKeyRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.publicKey(params, client: client)
      },
      .deferred(RightAuthorizeRequest.self) {
        (broker, params, request, client, makeResponder) throws(RPCError) in
        try broker.authorizeRight(
          params, client: client, rpcID: request.id, makeResponder: makeResponder)
      },
      .deferred(HandoffAuthorizeRequest.self) {
        (broker, params, request, client, makeResponder) throws(RPCError) in
        try broker.authorizeHandoff(
          params, client: client, rpcID: request.id, makeResponder: makeResponder)
      },
      .afterStore(SaveRightRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.saveRight(params, client: client)
      },
      .afterStore(LoadRightRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.loadRight(params, client: client)
      },
      .afterStore(RemoveRightRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.removeRight(params, client: client)
      },
      .afterStore(RemoveAllRightsRequest.self) { (broker, _, client) async throws(RPCError) in
        try await broker.removeAllRights(client: client)
      },
      .afterStore(KeySignRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.sign(params, client: client)
      },
      .afterStore(KeyDecryptRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.decrypt(params, client: client)
      },
      .afterStore(KeyExchangeRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.exchangeKeys(params, client: client)
      },
      .afterStore(SecretLoadRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.loadSecret(params, client: client)
      },
      .afterStore(HandoffCreateRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.createHandoff(params, client: client)
      },
      .afterStore(HandoffListRequest.self) { (broker, _, client) async throws(RPCError) in
        try await broker.listHandoffs(client: client)
      },
      .afterStore(HandoffRedeemRequest.self) { (broker, params, client) async throws(RPCError) in
        try await broker.redeemHandoff(params, client: client)
      },
    ]
  }

  // MARK: Glue to the rights book

  /// The client's own right named by `right`; notFound for any other (another client's looks the same).
  func right(_ params: some RightParams, of client: ClientSession) throws(RPCError) -> AuthRight {
    try rights.right(params.right(), of: client.number)
  }

  /// Registers a new handle for the client (at most MaxRightsPerConnection). A client that left
  /// while its store call ran gets none: its handles were dropped at the disconnection, and one
  /// registered now would be held until the daemon exits.
  func register(_ right: AuthRight, for client: ClientSession) throws(RPCError) {
    guard client.connected else { return }
    try rights.register(right, for: client.number, limit: configuration.maxRightsPerClient)
  }

  /// The enrolled set of the client's owner now (the domain state hash a biometryCurrentSet right
  /// is bound to), asked by the rights book only when it matters.
  func currentSet(of client: ClientSession) -> String? {
    domainStateHash(owner: defaultOwnerUID(of: client))
  }

  /// Tells the client a right's new state (`right.stateChanged`), if it changed.
  func tell(_ change: RightStateChange?, to client: ClientSession) {
    guard let change, client.connected else { return }
    client.channel.notify(
      Notification.rightStateChanged,
      StateChangedEvent(member: "right", handle: change.right, state: change.state).object)
  }

  /// Drops an authorization the enrolled set no longer backs, telling the client; call before
  /// reading or using a right.
  func revalidate(_ right: AuthRight, of client: ClientSession) {
    tell(rights.revalidate(right) { currentSet(of: client) }, to: client)
  }

  /// Revalidates every client's rights after the enrolled set may have changed, so their clients
  /// hear `right.stateChanged` at once rather than at the next use.
  func revalidateAllRights() {
    for number in rights.holders {
      guard let client = sessions.clients[number] else { continue }
      for right in rights.rights(of: number) { revalidate(right, of: client) }
    }
  }

  /// Ends the right's authorization in flight (appCancel) and leaves it notAuthorized.
  func deauthorize(_ right: AuthRight, of client: ClientSession, reason: String) {
    if let requestID = right.authorizing, let evaluation = client.evaluations[requestID] {
      finish(evaluation, .failure(error(.appCancel, evaluation, reason: reason)))
    }
    tell(rights.deauthorize(right), to: client)
  }

  /// A client disconnected: every right it held is deauthorized and forgotten (its evaluations have
  /// already ended). Called from `disconnect(_:)`.
  func dropRights(of client: ClientSession) { rights.dropAll(of: client.number) }

  // MARK: right.*

  private func createRight(_ params: RightCreateRequest.Params, client: ClientSession)
    throws(RPCError)
    -> RightHandleResult
  {
    let requirement = try params.requirement()
    let right = AuthRight(
      id: makeRightID(), requirement: requirement,
      boundDomainState: currentSet(of: client))
    try register(right, for: client)
    return RightHandleResult(right: right.id)
  }

  private func authorizeRight(
    _ params: RightAuthorizeRequest.Params, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    let right = try right(params, of: client)
    let reason = try params.localizedReason()
    revalidate(right, of: client)
    let (change, step) = rights.beginAuthorization(right) { currentSet(of: client) }
    tell(change, to: client)
    guard case .evaluate(let previous) = try step.get() else {
      return .success(RightAuthorizeResult(state: RightStateName.authorized))
    }
    let before = Set(client.evaluations.keys)
    let answer: MethodAnswer
    do {
      answer = try startEvaluation(
        client: client, policy: right.requirement.policy, reason: reason, contextID: nil,
        rpcID: rpcID,
        makeResponder: makeResponder
      ) { outcome in self.finishAuthorization(of: right, client: client, outcome) }
    } catch {
      tell(rights.abandonAuthorization(right, previous: previous), to: client)
      throw error
    }
    if answer == nil {
      rights.authorizing(right, requestID: client.evaluations.keys.first { !before.contains($0) })
    }
    return answer
  }

  /// Turns an authorization's outcome into the right's new state and the `right.authorize` answer.
  private func finishAuthorization(
    of right: AuthRight, client: ClientSession, _ outcome: EvaluationOutcome
  ) -> BrokerAnswer {
    let (change, result) = rights.finishAuthorization(right, outcome) { currentSet(of: client) }
    tell(change, to: client)
    return result.map { success in
      RightAuthorizeResult(
        state: RightStateName.authorized, requestID: success.requestID, sensor: success.sensor
      )
    }
  }

  private func checkCanAuthorize(_ params: RightHandleParams, client: ClientSession)
    throws(RPCError)
    -> EmptyResult
  {
    let right = try right(params, of: client)
    revalidate(right, of: client)
    try rights.checkEnrolledSet(right) { currentSet(of: client) }
    if case .failure(let code) = availability(
      of: right.requirement.policy, owner: defaultOwnerUID(of: client))
    {
      throw RPCError(code)
    }
    return EmptyResult()
  }

  private func deauthorizeRight(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> EmptyResult
  {
    let right = try right(params, of: client)
    deauthorize(right, of: client, reason: "deauthorized")
    return EmptyResult()
  }

  private func rightState(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> RightStateResult
  {
    let right = try right(params, of: client)
    revalidate(right, of: client)
    return RightStateResult(state: right.state)
  }

  private func releaseRight(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> EmptyResult
  {
    let right = try right(params, of: client)
    deauthorize(right, of: client, reason: "released")
    rights.forget(right.id, of: client.number)
    return EmptyResult()
  }
}
