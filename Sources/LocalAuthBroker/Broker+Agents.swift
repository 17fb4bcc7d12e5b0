import LocalAuthProtocol
import Sensors

extension Broker {
  /// The routes of agent.register, agent.unregister, agent.respond and agent.list.
  static var agentRoutes: [MethodRoute] {
    [
      .answer(AgentRegisterRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.registerAgent(params, client: client)
      },
      .answer(AgentUnregisterRequest.self) { (broker, _, client) throws(RPCError) in
        broker.unregisterAgent(of: client)
        return EmptyResult()
      },
      .answer(AgentRespondRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.respond(params, client: client)
      },
      .answer(AgentListRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.listAgents(params, client: client)
      },
    ]
  }

  /// Registers the connection as the prompt agent of its own uid (SO_PEERCRED): for the user (default), for
  /// its own logind session (`scope: "session"`), or for one process of the same user (`scope: "process", pid`).
  private func registerAgent(_ params: AgentRegisterRequest.Params, client: ClientSession)
    throws(RPCError)
    -> AgentRegisterResult
  {
    guard client.agent == nil else {
      throw RPCError(
        .alreadyInProgress, "This connection is already a prompt agent.",
        data: ["reason": "alreadyRegistered"])
    }
    let scope: PromptAgent.Scope
    switch try params.scope() {
    case "user": scope = .user
    case "session":
      guard let session = client.peer.loginSession else {
        throw .invalidParams("scope", "is 'session' but this process is in no logind session")
      }
      scope = .session(session)
    case "process":
      guard let pid = try params.pid() else {
        throw .invalidParams("pid", "is required with scope 'process'")
      }
      guard services.processes.owner(ofProcess: Int32(pid)) == client.peer.uid else {
        throw .invalidParams("pid", "must be a running process of your own user")
      }
      scope = .process(Int32(pid))
    default:
      throw .invalidParams("scope", "must be 'user', 'session' or 'process'")
    }
    let agent = try sessions.agents.register(
      client, scope: scope, limit: configuration.maxAgentsPerUser,
      since: Int64(services.time.sinceEpoch().milliseconds / 1000))
    client.agent = agent
    return AgentRegisterResult(
      agent: agent.id, uid: client.peer.uid, user: account(of: client).name,
      scope: scope.json.objectValue ?? [:])
  }

  /// Withdraws a connection's registration (also on disconnect); a prompt it showed ends with systemCancel.
  func unregisterAgent(of client: ClientSession) {
    guard let agent = client.agent else { return }
    client.agent = nil
    sessions.agents.remove(agent)
    for evaluation in scheduler.evaluations.values where evaluation.agent === agent {
      evaluation.agent = nil
      if evaluation.phase == .running {
        finish(evaluation, .failure(error(.systemCancel, evaluation, reason: "agentGone")))
      }
    }
  }

  /// The agent that shows an evaluation: one of the owner's own agents, the most specific scope that fits
  /// the requesting client (its process, then its logind session, then the user); one per scope.
  func agent(for evaluation: Evaluation) -> PromptAgent? {
    // System evaluations are the module's own prompt: no agent shows or answers them.
    guard !evaluation.isSystem else { return nil }
    return sessions.agents.agent(owner: evaluation.owner.uid, requester: evaluation.client.peer)
  }

  /// Shows a starting evaluation on its owner's agent, if there is one.
  func showPrompt(_ evaluation: Evaluation) {
    guard let agent = agent(for: evaluation) else { return }
    evaluation.agent = agent
    let options = evaluation.context.options
    let client = evaluation.client
    // What the passcode stage would ask for: the login password or localauthd's passcode.
    let secret = passcodeSecret(owner: evaluation.owner.uid)
    agent.connection.channel.notify(
      Notification.agentPrompt,
      AgentPromptEvent(
        requestID: evaluation.requestID, clientName: client.name,
        clientPID: Int(client.peer.pid), clientUID: Int(client.peer.uid),
        user: evaluation.owner.name, policy: evaluation.policy.name,
        localizedReason: evaluation.reason, sensor: evaluation.sensor,
        cancelTitle: options.localizedCancelTitle ?? "Cancel",
        fallbackTitle: evaluation.context.fallbackButtonShown
          ? options.localizedFallbackTitle
            ?? "Enter \(secret == "password" ? "Password" : "Passcode")"
          : nil,
        secret: secret, appID: shownAppID(of: client),
        sensorKind: evaluation.sensor.flatMap(sensors.driver(named:))?.kind.rawValue,
        ssh: evaluation.ssh
      ).object)
  }

  /// A client's app id as a prompt shows it, bound when the configuration binds it to executables
  /// and the client's executable is one of them (checked at hello, and again here: a reload may
  /// have changed the bindings), else only declared. Nil when it says nothing new: the default
  /// `uid-N` of a connection without session.hello, or an unbound id that is the client's name
  /// (hello's default when no appID is given).
  func shownAppID(of client: ClientSession) -> AgentAppID? {
    let id = client.appID
    let bound =
      client.peer.executable.map { configuration.appIDBindings[id]?.contains($0) ?? false }
      ?? false
    guard id != "uid-\(client.peer.uid)", bound || id != client.name else { return nil }
    return AgentAppID(id: id, bound: bound)
  }

  /// The longest login password an agent may send (localauthd-password-helper's PASSWORD_MAX).
  static let maxPasswordBytes = 512

  /// Sends an agent notification about an evaluation to the agent that shows it.
  func notifyAgent<N: NotificationType>(_ evaluation: Evaluation, _: N.Type, _ params: N.Params) {
    guard let agent = evaluation.agent, agent.connection.connected else { return }
    agent.connection.channel.notify(N.method, params.object)
  }

  /// agent.respond {requestID, action: cancel | fallback | passcode, passcode?}: only the agent showing
  /// the prompt may answer it; anyone else gets notFound, as if the prompt did not exist.
  private func respond(_ params: AgentRespondRequest.Params, client: ClientSession)
    throws(RPCError) -> EmptyResult
  {
    let requestID = try params.requestID()
    let action = try params.action()
    guard let agent = client.agent, let evaluation = scheduler.evaluations[requestID],
      evaluation.agent === agent, evaluation.phase == .running
    else {
      throw RPCError(
        .notFound, "No prompt with this requestID is shown by this agent.",
        data: ["field": "requestID"])
    }
    let answer: AgentAnswers.Answer
    switch action {
    case "cancel": answer = .cancel
    case "fallback": answer = .fallback
    case "passcode":
      let passcode = try params.passcode()
      // A login password may be longer than a passcode (up to the helper's limit).
      let password = evaluation.sensor.flatMap(sensors.driver(named:)) is any LoginPasswordSensor
      let limit = password ? Self.maxPasswordBytes : 64
      guard (1...limit).contains(passcode.utf8.count) else {
        throw .invalidParams("passcode", "must be 1–\(limit) bytes")
      }
      guard evaluation.askingForPasscode else {
        throw RPCError(
          .invalidParams, "The prompt is not asking for the passcode.",
          data: ["field": "action", "reason": "notAskingForPasscode"])
      }
      // A copy of the broker's own, wiped once judged (the parsed one is the server's to wipe).
      answer = .passcode(SecretWipe.ownedCopy(of: passcode))
    default:
      throw .invalidParams("action", "must be 'cancel', 'fallback' or 'passcode'")
    }
    guard evaluation.answers.put(answer) else {
      throw RPCError.limit(
        "AgentAnswersPerPrompt", AgentAnswers.limit, "answers waiting for this prompt")
    }
    return EmptyResult()
  }
}

extension AgentAnswers.Answer {
  /// The capture event the person's action stands for.
  var event: CaptureEvent {
    switch self {
    case .cancel: .userCancel
    case .fallback: .userFallback
    case .passcode(let digits): .passcode(digits)
    }
  }
}

extension Broker {
  /// agent.list {user?}: the caller's own agents (root and admins: any user's, with `user`), each
  /// `{pid, scope, session?, process?, since}` with `since` in seconds since the epoch.
  func listAgents(_ params: AgentListRequest.Params, client: ClientSession) throws(RPCError)
    -> AgentListResult
  {
    let uid: UInt32
    if params.user() != nil {
      if client.isAdmin {
        uid = try requestedOwner(params.reader, client: client).uid
      } else {
        // Anyone may name themselves; naming another user is refused inside.
        _ = try requestedOwner(params.reader, client: client)
        uid = client.peer.uid
      }
    } else {
      uid = client.peer.uid
    }
    let listed = sessions.agents.connected(uid: uid).map { agent in
      var entry = ListedAgent(pid: Int(agent.pid), scope: agent.scope.kind, since: Int(agent.since))
      switch agent.scope {
      case .session(let id): entry.session = id
      case .process(let pid): entry.process = Int(pid)
      case .user: break
      }
      return entry
    }
    return AgentListResult(uid: uid, agents: listed)
  }
}
