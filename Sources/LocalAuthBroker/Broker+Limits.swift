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

  /// queueFull when one more evaluation of this client would pass a queue limit (in total, per
  /// connection, per uid but root's).
  func queueRefusal(for evaluation: Evaluation) -> RPCError? {
    queue.refusal(
      for: evaluation,
      limits: EvaluationQueue.Limits(
        total: configuration.maxQueue, perClient: configuration.maxQueuePerClient,
        perUID: configuration.maxQueuePerUID))
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
