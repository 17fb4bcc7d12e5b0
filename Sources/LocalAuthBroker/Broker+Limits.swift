import LocalAuthProtocol

extension Broker {
  /// A client-supplied text within `MaxTextBytes` and free of control characters; invalid params
  /// naming the field (and the limit) otherwise. Nil stays nil.
  func checkedText(_ value: String?, field: String) throws(RPCError) -> String? {
    guard let value else { return nil }
    if value.utf8.count > configuration.maxTextBytes {
      throw RPCError(
        .invalidParams,
        "Invalid params: '\(field)' must be at most \(configuration.maxTextBytes) bytes (MaxTextBytes).",
        data: [
          "field": .string(field), "limit": "MaxTextBytes", "max": .int(configuration.maxTextBytes),
        ])
    }
    return value
  }

  /// A client-supplied name (client name, app id) within the limits and without control
  /// characters, which could forge log lines or reach a terminal raw.
  func checkedName(_ value: String?, field: String) throws(RPCError) -> String? {
    guard let value = try checkedText(value, field: field) else { return nil }
    guard !PrintableText.containsControlCharacters(value) else {
      throw .invalidParams(field, "must not contain control characters")
    }
    return value
  }

  /// Whether one more evaluation of this client fits the queue: in total, per connection and per
  /// uid (root's clients are bounded only in total and per connection). The refusal names the limit.
  func queueRefusal(for evaluation: Evaluation) -> RPCError? {
    let client = evaluation.client
    let refusal: (String, Int)?
    if queue.count >= configuration.maxQueue {
      refusal = ("MaxQueue", configuration.maxQueue)
    } else if client.queuedCount >= configuration.maxQueuePerClient {
      refusal = ("MaxQueuePerClient", configuration.maxQueuePerClient)
    } else if client.peer.uid != 0,
      queuedByUID[client.peer.uid, default: 0] >= configuration.maxQueuePerUID
    {
      refusal = ("MaxQueuePerUID", configuration.maxQueuePerUID)
    } else {
      refusal = nil
    }
    guard let (key, max) = refusal else { return nil }
    return RPCError(
      .queueFull, "The evaluation queue is full (\(key)=\(max)).",
      data: [
        "requestID": .string(evaluation.requestID), "queued": .int(queue.count),
        "limit": .string(key), "max": .int(max),
      ])
  }

  /// The next evaluation to run: a system evaluation first; otherwise the oldest queued one of the
  /// uid served longest ago, so that one uid's backlog never makes another uid wait for more than
  /// one prompt per busy uid. Cheap when one uid has everything queued (the first entry), linear in
  /// the queue at worst.
  func nextQueuedIndex() -> Int? {
    guard let first = queue.first else { return nil }
    // System evaluations sit at the head of the queue and go first, in their order.
    if first.isSystem { return 0 }
    guard queuedByUID.count > 1 else { return 0 }
    var chosen = first.client.peer.uid
    var chosenServed = lastServedTurn[chosen] ?? -1
    for uid in queuedByUID.keys {
      let served = lastServedTurn[uid] ?? -1
      if served < chosenServed {
        chosen = uid
        chosenServed = served
      }
    }
    return queue.firstIndex { $0.client.peer.uid == chosen }
  }

  /// Books a queue slot (or its release) against the client and its uid.
  func countQueued(_ evaluation: Evaluation, _ delta: Int) {
    evaluation.client.queuedCount += delta
    let uid = evaluation.client.peer.uid
    let count = queuedByUID[uid, default: 0] + delta
    queuedByUID[uid] = count > 0 ? count : nil
  }
}

extension Broker {
  /// Remembers a biometric success on its context for reuse; any other success clears the grant.
  /// Every explicit context keeps one, as Apple's: "a previously successful authentication causes
  /// the next policy evaluation [on the same context] to succeed without testing biometry again".
  /// An implicit context (no `context` param) keeps one only when the daemon gave it a reuse
  /// window (an SSH key's context); otherwise it is never evaluated twice.
  func grantReuse(_ evaluation: Evaluation, _ success: EvaluationSuccess) {
    let context = evaluation.context
    guard context.explicit || context.options.reuseDuration > 0 else { return }
    guard !success.reused else { return }
    let biometric = evaluation.sensor.flatMap { name in
      sensors.drivers.first { $0.name == name }?.kind.isBiometric
    }
    context.reuseGrant =
      biometric == true
      ? ReuseGrant(
        at: time.now(), policy: evaluation.policy, owner: evaluation.owner.uid,
        domainState: domainStateHash(owner: evaluation.owner.uid)) : nil
  }

  /// Whether the context's last biometric success answers this policy now: the same policy, for
  /// the same owner, with the same enrolled set and biometry usable (not locked out), and within
  /// the reuse window when the context set one (touchIDAuthenticationAllowableReuseDuration > 0);
  /// without one, for an explicit context's lifetime, as Apple's contexts remember their success.
  func mayReuse(_ context: AuthContext, for policy: Policy, owner: UInt32) -> Bool {
    let window = context.options.reuseDuration
    guard let grant = context.reuseGrant, grant.policy == policy, grant.owner == owner,
      window > 0
        ? time.now() - grant.at <= .milliseconds(Int64(window * 1000)) : context.explicit,
      case .success = biometryAvailability(owner: owner),
      grant.domainState == domainStateHash(owner: owner)
    else { return false }
    return true
  }
}

extension Broker {
  /// Whether the broker needs peers' executables (app ids are bound to executables).
  public var bindsAppIDs: Bool {
    !configuration.appIDBindings.isEmpty || configuration.requireAppIDBinding
  }

  /// Refuses an app id claim that its binding does not allow: a bound app id only from one of its
  /// executables, and with `RequireAppIDBinding=yes` no unbound app id at all.
  func checkAppIDBinding(_ appID: String, of client: ClientSession) throws(RPCError) {
    guard let allowed = configuration.appIDBindings[appID] else {
      if configuration.requireAppIDBinding {
        throw RPCError(
          .permissionDenied, "App id \(appID) is not bound to any executable.",
          data: ["field": "client.appID"])
      }
      return
    }
    guard let executable = client.peer.executable else {
      throw RPCError(
        .permissionDenied,
        "App id \(appID) is bound, and the daemon cannot read this client's executable (/proc/PID/exe needs CAP_SYS_PTRACE for other users' processes).",
        data: ["field": "client.appID"])
    }
    guard allowed.contains(executable) else {
      throw RPCError(
        .permissionDenied, "App id \(appID) may be claimed only by its bound executables.",
        data: ["field": "client.appID"])
    }
  }
}
