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

  // MARK: Handles

  /// The client's own right named by `right`; notFound for any other (another client's looks the same).
  func right(_ params: some RightParams, of client: ClientSession) throws(RPCError) -> AuthRight {
    try right(id: params.right(), of: client)
  }

  /// The client's own right with this handle; notFound for any other.
  private func right(id: String, of client: ClientSession) throws(RPCError) -> AuthRight {
    guard let right = client.rights[id] else {
      throw RPCError(.notFound, "No such right: \(id).", data: ["field": "right"])
    }
    return right
  }

  /// Registers a new handle for the client.
  func register(_ right: AuthRight, for client: ClientSession) throws(RPCError) {
    guard client.rights.count < configuration.maxRightsPerClient else {
      throw .limit(
        "MaxRightsPerConnection", configuration.maxRightsPerClient,
        "too many rights on this connection; release some with right.release")
    }
    client.rights[right.id] = right
  }

  static func makeRightID() -> String { "right-" + makeUUID().lowercased() }

  /// Changes a right's state and tells its client (`right.stateChanged`) when it really changed.
  func setState(_ right: AuthRight, _ state: String, of client: ClientSession) {
    guard right.state != state else { return }
    right.state = state
    if client.connected {
      client.channel.notify(
        Notification.rightStateChanged, ["right": .string(right.id), "state": .string(state)])
    }
  }

  /// Whether a biometryCurrentSet right's enrolled set has changed since it was bound.
  func enrolledSetChanged(_ right: AuthRight, of client: ClientSession) -> Bool {
    guard right.requirement == .biometryCurrentSet, let bound = right.boundDomainState else {
      return false
    }
    return domainStateHash(owner: defaultOwnerUID(of: client)) != bound
  }

  /// Drops an authorization the enrolled set no longer backs; call before reading or using a right.
  func revalidate(_ right: AuthRight, of client: ClientSession) {
    if right.isAuthorized && enrolledSetChanged(right, of: client) {
      setState(right, RightStateName.notAuthorized, of: client)
    }
  }

  /// Revalidates every client's rights after the enrolled set may have changed, so their clients
  /// hear `right.stateChanged` at once rather than at the next use.
  func revalidateAllRights() {
    for client in clients.values {
      for right in client.rights.values { revalidate(right, of: client) }
    }
  }

  /// The error for a biometryCurrentSet right whose enrolled set changed: Apple documents that the
  /// authorization fails but not with which code; localauthd answers invalidContext.
  func enrolledSetChangedError(_ right: AuthRight) -> RPCError {
    RPCError(
      .invalidContext,
      "The set of enrolled biometric identities changed; this biometryCurrentSet right can no longer be authorized.",
      data: ["reason": "biometrySetChanged", "right": .string(right.id)])
  }

  // MARK: right.*

  private func createRight(_ params: RightCreateRequest.Params, client: ClientSession)
    throws(RPCError)
    -> JSONValue
  {
    let requirement = try params.requirement()
    let right = AuthRight(
      id: Self.makeRightID(), requirement: requirement,
      boundDomainState: domainStateHash(owner: defaultOwnerUID(of: client)))
    try register(right, for: client)
    return ["right": .string(right.id)]
  }

  private func authorizeRight(
    _ params: RightAuthorizeRequest.Params, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> MethodAnswer {
    let right = try right(params, of: client)
    let reason = try params.localizedReason()
    revalidate(right, of: client)
    if let busy = right.authorizing {
      throw RPCError(
        .alreadyInProgress, "The right is already being authorized.",
        data: ["requestID": .string(busy)])
    }
    if enrolledSetChanged(right, of: client) {
      setState(right, RightStateName.notAuthorized, of: client)
      throw enrolledSetChangedError(right)
    }
    if right.isAuthorized { return .success(["state": .string(RightStateName.authorized)]) }
    let previous = right.state
    setState(right, RightStateName.authorizing, of: client)
    let before = Set(client.evaluations.keys)
    let answer: MethodAnswer
    do {
      answer = try startEvaluation(
        client: client, policy: right.requirement.policy, reason: reason, contextID: nil,
        rpcID: rpcID,
        makeResponder: makeResponder
      ) { outcome in self.finishAuthorization(of: right, client: client, outcome) }
    } catch {
      setState(right, previous, of: client)
      throw error
    }
    if answer == nil { right.authorizing = client.evaluations.keys.first { !before.contains($0) } }
    return answer
  }

  /// Turns an authorization's outcome into the right's new state and the `right.authorize` answer.
  private func finishAuthorization(
    of right: AuthRight, client: ClientSession, _ outcome: EvaluationOutcome
  ) -> Result<JSONValue, RPCError> {
    right.authorizing = nil
    switch outcome {
    case .success(let success):
      if enrolledSetChanged(right, of: client) {
        setState(right, RightStateName.notAuthorized, of: client)
        return .failure(enrolledSetChangedError(right))
      }
      if right.requirement == .biometryCurrentSet && right.boundDomainState == nil {
        right.boundDomainState = domainStateHash(owner: defaultOwnerUID(of: client))
      }
      setState(right, RightStateName.authorized, of: client)
      return .success([
        "state": .string(RightStateName.authorized), "requestID": .string(success.requestID),
        "sensor": success.sensor.map(JSONValue.string) ?? .null,
      ])
    case .failure(let error):
      setState(right, RightStateName.notAuthorized, of: client)
      return .failure(error)
    }
  }

  private func checkCanAuthorize(_ params: RightHandleParams, client: ClientSession)
    throws(RPCError)
    -> JSONValue
  {
    let right = try right(params, of: client)
    revalidate(right, of: client)
    if enrolledSetChanged(right, of: client) { throw enrolledSetChangedError(right) }
    if case .failure(let code) = availability(
      of: right.requirement.policy, owner: defaultOwnerUID(of: client))
    {
      throw RPCError(code)
    }
    return [:]
  }

  private func deauthorizeRight(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> JSONValue
  {
    let right = try right(params, of: client)
    deauthorize(right, of: client, reason: "deauthorized")
    return [:]
  }

  /// Ends the right's authorization in flight (appCancel) and leaves it notAuthorized.
  func deauthorize(_ right: AuthRight, of client: ClientSession, reason: String) {
    if let requestID = right.authorizing, let evaluation = client.evaluations[requestID] {
      finish(evaluation, .failure(error(.appCancel, evaluation, reason: reason)))
    }
    right.authorizing = nil
    setState(right, RightStateName.notAuthorized, of: client)
  }

  private func rightState(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> JSONValue
  {
    let right = try right(params, of: client)
    revalidate(right, of: client)
    return ["state": .string(right.state)]
  }

  private func releaseRight(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> JSONValue
  {
    let right = try right(params, of: client)
    deauthorize(right, of: client, reason: "released")
    client.rights[right.id] = nil
    return [:]
  }

  /// A client disconnected: every right it held is deauthorized and forgotten (its evaluations have
  /// already ended). Called from `disconnect(_:)`.
  func dropRights(of client: ClientSession) {
    for right in client.rights.values {
      right.authorizing = nil
      right.state = RightStateName.notAuthorized
    }
    client.rights.removeAll()
  }
}
