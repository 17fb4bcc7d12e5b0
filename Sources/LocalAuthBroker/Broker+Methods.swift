import LocalAuthProtocol
import Sensors

extension Broker {
  /// The routes of the session, context and evaluation methods and of `broker.status`.
  static var sessionRoutes: [MethodRoute] {
    [
      .deferred(EvaluatePolicyRequest.self) {
        (broker, params, request, client, makeResponder) throws(RPCError) in
        try broker.evaluate(params, client: client, rpcID: request.id, makeResponder: makeResponder)
      },
      .answer(CanEvaluatePolicyRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.canEvaluate(params, client: client)
      },
      .answer(HelloRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.hello(params, client: client)
      },
      .answer(SetActiveRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.setActive(params, client: client)
      },
      .answer(CreateContextRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.createContext(params, client: client)
      },
      .answer(InvalidateContextRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.invalidate(params, client: client)
      },
      .answer(CancelEvaluationRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.cancel(params, client: client)
      },
      .answer(DomainStateRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.domainState(params, client: client)
      },
      .answer(BrokerStatusRequest.self) { (broker, _, client) throws(RPCError) in
        broker.status(for: client)
      },
      .answer(MonitorRequest.self) { (broker, _, client) throws(RPCError) in
        broker.startMonitoring(client)
      },
    ]
  }

  // MARK: Session

  private func hello(_ params: HelloRequest.Params, client: ClientSession) throws(RPCError)
    -> HelloResult
  {
    let info = try params.client()
    let name = try info.nonEmptyString("name")
    guard name.utf8.count <= 256 else {
      throw .invalidParams("client.name", "must be at most 256 bytes")
    }
    _ = try checkedName(name, field: "client.name")
    let appID = try checkedName(try info.optionalString("appID"), field: "client.appID")
    let interactive = try info.optionalBool("interactive")
    if let version = try params.protocolVersion(),
      version != protocolVersion
    {
      throw .invalidParams(
        "protocol", "must be \(protocolVersion) (this server speaks protocol \(protocolVersion))")
    }
    let claimed = (appID?.isEmpty == false ? appID : nil) ?? name
    try checkAppIDBinding(claimed, of: client)
    client.name = name
    client.appID = claimed
    client.interactive = interactive ?? true
    return HelloResult(
      version: version, protocolVersion: protocolVersion, biometryType: biometryType,
      sensors: sensors.drivers.map(\.name))
  }

  private func setActive(_ params: SetActiveRequest.Params, client: ClientSession)
    throws(RPCError) -> EmptyResult
  {
    let active = try params.active()
    client.active = active
    if !active, let current = scheduler.running, current.client === client {
      finish(current, .failure(error(.systemCancel, current, reason: "inactive")))
    }
    return EmptyResult()
  }

  // MARK: Contexts

  private func createContext(_ params: CreateContextRequest.Params, client: ClientSession)
    throws(RPCError) -> CreateContextResult
  {
    let options = try params.options()
    _ = try checkedText(options.localizedFallbackTitle, field: "localizedFallbackTitle")
    _ = try checkedText(options.localizedCancelTitle, field: "localizedCancelTitle")
    guard client.contexts.count < configuration.maxContextsPerClient else {
      throw .limit(
        "MaxContextsPerConnection", configuration.maxContextsPerClient,
        "too many contexts on this connection; invalidate some with context.invalidate")
    }
    let context = AuthContext(
      id: "ctx-" + makeUUID().lowercased(), options: options, explicit: true)
    client.contexts[context.id] = context
    return CreateContextResult(context: context.id)
  }

  /// The client's own context with this id; notFound for any other.
  func context(_ id: String, of client: ClientSession) throws(RPCError) -> AuthContext {
    if client.invalidatedContexts.contains(id) {
      let gone = AuthContext(id: id, options: ContextOptions(), explicit: true)
      gone.invalidated = true
      return gone
    }
    guard let context = client.contexts[id] else {
      throw RPCError(.notFound, "No such context: \(id).", data: ["field": "context"])
    }
    return context
  }

  private func canEvaluate(_ params: CanEvaluatePolicyRequest.Params, client: ClientSession)
    throws(RPCError) -> CanEvaluateResult
  {
    let policy = try params.policy()
    let owner = try requestedOwnerUID(params.reader, client: client)
    let system = try systemRequest(params.reader, client: client, owner: owner)
    return try canEvaluate(
      policy, owner: owner, system: system, context: try params.context(), client: client)
  }

  /// `context.canEvaluatePolicy` read straight from its plain frame (`CanEvaluatePolicyFrame`: no
  /// `user` or `requester`, so the owner is the client's default and it is no system request):
  /// the answer the route gives the same request. Call on the broker's executor (the loop).
  public func canEvaluate(_ frame: CanEvaluatePolicyFrame, from client: ClientSession) -> Result<
    CanEvaluateResult, RPCError
  > {
    do throws(RPCError) {
      return .success(
        try canEvaluate(
          frame.policy, owner: defaultOwnerUID(of: client), system: nil, context: frame.context,
          client: client))
    } catch {
      return .failure(error)
    }
  }

  /// Whether `policy` could be evaluated now for `owner` (a system request's rules when `system`),
  /// in the client's context `contextID` when given.
  private func canEvaluate(
    _ policy: Policy, owner: UInt32, system: SystemRequest?, context contextID: String?,
    client: ClientSession
  ) throws(RPCError) -> CanEvaluateResult {
    // The type is the device's (`availableNow`: the same for every owner, as `hello` says).
    let type = biometryType
    if let id = contextID, try context(id, of: client).invalidated {
      return CanEvaluateResult(refusal: CanEvaluateRefusal(.invalidContext), biometryType: type)
    }
    if let system {
      guard case .failure(let refusal) = systemAvailability(owner: owner, system) else {
        return CanEvaluateResult(refusal: nil, biometryType: type)
      }
      return CanEvaluateResult(
        refusal: CanEvaluateRefusal(refusal.code, reason: refusal.data["reason"]?.stringValue),
        biometryType: type)
    }
    switch availability(of: policy, owner: owner) {
    case .success: return CanEvaluateResult(refusal: nil, biometryType: type)
    case .failure(let code):
      return CanEvaluateResult(refusal: CanEvaluateRefusal(code), biometryType: type)
    }
  }

  private func invalidate(_ params: InvalidateContextRequest.Params, client: ClientSession)
    throws(RPCError) -> EmptyResult
  {
    let context = try context(try params.context(), of: client)
    if !context.invalidated { diagnoseInvalidated(context, client: client) }
    context.invalidated = true
    if let evaluation = context.inFlight {
      finish(evaluation, .failure(error(.appCancel, evaluation, reason: "invalidated")))
    }
    client.forget(invalidated: context)
    return EmptyResult()
  }

  private func cancel(_ params: CancelEvaluationRequest.Params, client: ClientSession)
    throws(RPCError) -> CancelEvaluationResult
  {
    let target: Evaluation?
    if let requestID = try params.requestID() {
      // A system evaluation is cancelled only by the client that asked for it (the module).
      let found = scheduler.evaluations[requestID]
      target = found.flatMap {
        $0.client === client || (client.isAdmin && !$0.isSystem) ? $0 : nil
      }
    } else if let rpcID = params.id() {
      target = client.evaluations.values.first { $0.rpcID == rpcID }
    } else {
      throw .invalidParams(
        "requestID", "is required (or 'id', the JSON-RPC id of the evaluate request)")
    }
    guard let evaluation = target else { return CancelEvaluationResult(cancelledRequestID: nil) }
    finish(evaluation, .failure(error(.appCancel, evaluation, reason: "cancelled")))
    return CancelEvaluationResult(cancelledRequestID: evaluation.requestID)
  }

  private func domainState(_ params: DomainStateRequest.Params, client: ClientSession)
    throws(RPCError) -> DomainStateResult
  {
    if let id = try params.context(), try context(id, of: client).invalidated {
      throw RPCError(.invalidContext)
    }
    let owner = try requestedOwnerUID(params.reader, client: client)
    let hash = appDomainState(owner: owner, client: client)
    return DomainStateResult(biometryStateHash: hash)
  }

  // MARK: Evaluation

  /// `evaluatePolicy`: every call gets its requestID first, so a refusal (invalid params,
  /// invalidContext, alreadyInProgress, queueFull) carries it in `error.data` and is logged.
  private func evaluate(
    _ params: EvaluatePolicyRequest.Params, client: ClientSession, rpcID: RequestID?,
    makeResponder: () -> any Responder
  ) throws(RPCError) -> BrokerAnswer? {
    let requestID = makeUUID()
    do {
      let requested = try params.policy()
      let reason = try params.localizedReason()
      let owner = try requestedOwner(params.reader, client: client)
      let system = try systemRequest(params.reader, client: client, owner: owner.uid)
      // A system evaluation is biometric-only whatever the client asks for (the module's `policy=`).
      let policy = system == nil ? requested : .deviceOwnerAuthenticationWithBiometrics
      return try startEvaluation(
        client: client, policy: policy, reason: reason, owner: owner, system: system,
        contextID: try params.context(), rpcID: rpcID,
        makeResponder: makeResponder, requestID: requestID)
    } catch {
      throw refused(error, requestID: requestID, client: client)
    }
  }

  /// A refused evaluation's error with its own requestID (a busy context's evaluation moves to
  /// `inProgressRequestID`), logged with the client within the at-once log budget.
  private func refused(_ error: RPCError, requestID: String, client: ClientSession) -> RPCError {
    var error = error
    if let busy = error.data["requestID"], busy != .string(requestID) {
      error.data["inProgressRequestID"] = busy
    }
    error.data["requestID"] = .string(requestID)
    // A refusal ends at once too: the same budget holds its line (AtOnceLogBudget).
    let now = services.time.now()
    logSuppressedAtOnce(now: now)
    if observability.atOnceLogBudget.admit(uid: client.peer.uid, outcome: error.code.name, now: now)
    {
      services.log.notice(
        "evaluation \(requestID) refused: \(error.code.name) (client pid \(client.peer.pid) uid \(client.peer.uid))"
      )
    }
    return error
  }
}
