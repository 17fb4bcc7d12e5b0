import LocalAuthProtocol
import Sensors

/// Starting an evaluation: its context, the outcomes known without a prompt (reuse,
/// unavailability, non-interactive, a full queue), and where its outcome goes.
extension Broker {
  /// Starts an evaluation for a method (evaluatePolicy, right.authorize): answers at once when no
  /// prompt is needed or possible, else queues it and returns nil. `shape` turns the outcome into
  /// the method's answer (for immediate outcomes too); by default the evaluatePolicy answer.
  func startEvaluation(
    client: ClientSession, policy: Policy, reason: String, owner: SensorOwner? = nil,
    system: SystemRequest? = nil, contextID: String?, rpcID: RequestID?,
    makeResponder: () -> any Responder, allowReuse: Bool = true,
    requestID: String? = nil,
    shape: @escaping (EvaluationOutcome) -> BrokerAnswer = { $0.answer }
  ) throws(RPCError) -> BrokerAnswer? {
    let evaluation = try prepareEvaluation(
      client: client, policy: policy, reason: reason, owner: owner, system: system,
      contextID: contextID, rpcID: rpcID, allowReuse: allowReuse, requestID: requestID,
      context: nil)
    if let immediate = settledAtOnce(evaluation) { return shape(immediate) }
    evaluation.delivery = .responder(makeResponder(), shape: shape)
    enqueue(evaluation)
    return nil
  }

  /// Starts an evaluation for broker code (a handoff's authorization, an SSH signature): the
  /// outcome goes to `handler`, at once when no prompt is needed or possible, else when the
  /// evaluation ends (with appCancel when its client went away first).
  func startEvaluation(
    client: ClientSession, policy: Policy, reason: String, contextID: String?, rpcID: RequestID?,
    allowReuse: Bool = true, context: AuthContext? = nil, ssh: AgentSSHSubject? = nil,
    then handler: @escaping (EvaluationOutcome) -> Void
  ) throws(RPCError) {
    let evaluation = try prepareEvaluation(
      client: client, policy: policy, reason: reason, owner: nil, system: nil,
      contextID: contextID, rpcID: rpcID, allowReuse: allowReuse, requestID: nil,
      context: context)
    evaluation.ssh = ssh
    if let immediate = settledAtOnce(evaluation) {
      handler(immediate)
      return
    }
    evaluation.delivery = .handler(handler)
    enqueue(evaluation)
  }

  /// A new evaluation in its context: the daemon's `context`, the client's explicit one
  /// (`contextID`: invalidContext, alreadyInProgress) or a fresh implicit one.
  private func prepareEvaluation(
    client: ClientSession, policy: Policy, reason: String, owner: SensorOwner?,
    system: SystemRequest?, contextID: String?, rpcID: RequestID?, allowReuse: Bool,
    requestID: String?, context daemonContext: AuthContext?
  ) throws(RPCError) -> Evaluation {
    _ = try checkedText(reason, field: "localizedReason")
    let context: AuthContext
    if let daemonContext {
      context = daemonContext
    } else if let id = contextID {
      context = try self.context(id, of: client)
      if context.invalidated { throw RPCError(.invalidContext) }
      if let busy = context.inFlight {
        throw RPCError(
          .alreadyInProgress, "The context already has an evaluation in progress.",
          data: ["requestID": .string(busy.requestID)])
      }
    } else {
      context = AuthContext(
        id: "ctx-" + makeUUID().lowercased(), options: ContextOptions(), explicit: false)
    }
    let evaluation = Evaluation(
      requestID: requestID ?? makeUUID(), client: client, context: context, policy: policy,
      reason: reason, owner: owner ?? defaultOwner(of: client), rpcID: rpcID)
    evaluation.mayReuse = allowReuse
    evaluation.system = system
    return evaluation
  }

  /// The outcome known without a prompt, accounted as finished; nil when the evaluation queues.
  private func settledAtOnce(_ evaluation: Evaluation) -> EvaluationOutcome? {
    guard let immediate = immediateOutcome(evaluation) else { return nil }
    evaluation.phase = .finished
    account(immediate, of: evaluation, successReason: "reused", atOnce: true)
    return immediate
  }

  /// The outcome known without a prompt: reuse, unavailability, non-interactive, a full queue.
  private func immediateOutcome(_ evaluation: Evaluation) -> EvaluationOutcome? {
    let context = evaluation.context
    if scheduler.shuttingDown {
      return .failure(error(.systemCancel, evaluation, reason: "shutdown"))
    }
    if let system = evaluation.system {
      if case .failure(var refusal) = systemAvailability(owner: evaluation.owner.uid, system) {
        refusal.data["requestID"] = .string(evaluation.requestID)
        return .failure(refusal)
      }
    } else if case .failure(let code) = availability(
      of: evaluation.policy, owner: evaluation.owner.uid)
    {
      return .failure(error(code, evaluation))
    }
    if evaluation.mayReuse
      && mayReuse(context, for: evaluation.policy, owner: evaluation.owner.uid)
    {
      return success(evaluation, sensor: nil, reused: true)
    }
    if !evaluation.client.interactive || context.options.interactionNotAllowed {
      return .failure(error(.notInteractive, evaluation))
    }
    if scheduler.running != nil, let refusal = queueRefusal(for: evaluation) {
      return .failure(refusal)
    }
    return nil
  }

  /// queueFull when one more evaluation of this client would pass a queue limit (in total, per
  /// connection, per uid but root's).
  func queueRefusal(for evaluation: Evaluation) -> RPCError? {
    scheduler.queue.refusal(
      for: evaluation,
      limits: EvaluationQueue.Limits(
        total: configuration.maxQueue, perClient: configuration.maxQueuePerClient,
        perUID: configuration.maxQueuePerUID))
  }
}
