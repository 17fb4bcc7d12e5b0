/// The method names of protocol version 1 (docs/protocol.md, "Methods"), each its request
/// type's `method`: the spelling lives in the type (`MethodRegistry` lists them all).
public enum Method {
  /// `session.hello`
  public static let hello = HelloRequest.method
  /// `session.setActive`
  public static let setActive = SetActiveRequest.method
  /// `context.create`
  public static let contextCreate = CreateContextRequest.method
  /// `context.canEvaluatePolicy`
  public static let canEvaluatePolicy = CanEvaluatePolicyRequest.method
  /// `context.evaluatePolicy`
  public static let evaluatePolicy = EvaluatePolicyRequest.method
  /// `context.invalidate`
  public static let invalidate = InvalidateContextRequest.method
  /// `context.domainState`
  public static let domainState = DomainStateRequest.method
  /// `evaluation.cancel`
  public static let cancel = CancelEvaluationRequest.method
  /// `sensors.list`
  public static let sensorsList = ListSensorsRequest.method
  /// `sensors.script`
  public static let sensorsScript = ScriptSensorRequest.method
  /// `sensors.enroll`
  public static let sensorsEnroll = EnrollRequest.method
  /// `sensors.unenroll`
  public static let sensorsUnenroll = UnenrollRequest.method
  /// `sensors.setPasscode`
  public static let sensorsSetPasscode = SetPasscodeRequest.method
  /// `sensors.resetLockout`
  public static let sensorsResetLockout = ResetLockoutRequest.method
  /// `broker.status`
  public static let brokerStatus = BrokerStatusRequest.method
  /// `broker.monitor`: subscribe this connection to `monitor.event` notifications.
  public static let brokerMonitor = MonitorRequest.method
  /// `broker.findings`
  public static let brokerFindings = FindingsRequest.method
  /// `broker.trace`
  public static let brokerTrace = TraceRequest.method
  /// `agent.register`
  public static let agentRegister = AgentRegisterRequest.method
  /// `agent.unregister`
  public static let agentUnregister = AgentUnregisterRequest.method
  /// `agent.respond`
  public static let agentRespond = AgentRespondRequest.method
  /// `agent.list`
  public static let agentList = AgentListRequest.method
  /// `right.create`
  public static let rightCreate = RightCreateRequest.method
  /// `right.authorize`
  public static let rightAuthorize = RightAuthorizeRequest.method
  /// `right.checkCanAuthorize`
  public static let rightCheckCanAuthorize = RightCheckCanAuthorizeRequest.method
  /// `right.deauthorize`
  public static let rightDeauthorize = RightDeauthorizeRequest.method
  /// `right.state`
  public static let rightState = RightStateRequest.method
  /// `right.release`
  public static let rightRelease = RightReleaseRequest.method
  /// `rightStore.saveRight`
  public static let rightStoreSave = SaveRightRequest.method
  /// `rightStore.right`
  public static let rightStoreRight = LoadRightRequest.method
  /// `rightStore.removeRight`
  public static let rightStoreRemove = RemoveRightRequest.method
  /// `rightStore.removeAllRights`
  public static let rightStoreRemoveAll = RemoveAllRightsRequest.method
  /// `key.publicKey`
  public static let keyPublicKey = PublicKeyRequest.method
  /// `key.sign`
  public static let keySign = KeySignRequest.method
  /// `key.decrypt`
  public static let keyDecrypt = KeyDecryptRequest.method
  /// `key.exchangeKeys`
  public static let keyExchangeKeys = KeyExchangeRequest.method
  /// `secret.load`
  public static let secretLoad = SecretLoadRequest.method
  /// `handoff.create`
  public static let handoffCreate = HandoffCreateRequest.method
  /// `handoff.list`
  public static let handoffList = HandoffListRequest.method
  /// `handoff.authorize`
  public static let handoffAuthorize = HandoffAuthorizeRequest.method
  /// `handoff.redeem`
  public static let handoffRedeem = HandoffRedeemRequest.method
  /// `sshKey.create`
  public static let sshKeyCreate = SSHKeyCreateRequest.method
  /// `sshKey.list`
  public static let sshKeyList = SSHKeyListRequest.method
  /// `sshKey.delete`
  public static let sshKeyDelete = SSHKeyDeleteRequest.method
  /// `sshKey.sign`
  public static let sshKeySign = SSHKeySignRequest.method
}

/// The notification names the server sends, each its notification type's `method`.
public enum Notification {
  /// `evaluation.queued {requestID, position}`
  public static let queued = QueuedNotification.method
  /// `evaluation.started {requestID, policy}`
  public static let started = StartedNotification.method
  /// `evaluation.armed {requestID, sensor, attempt}`
  public static let armed = ArmedNotification.method
  /// `evaluation.feedback {requestID, sensor, feedback, attempt}`
  public static let feedback = FeedbackNotification.method
  /// `evaluation.fallback {requestID, to}`
  public static let fallback = FallbackNotification.method
  /// `monitor.event {event, requestID, …}` for connections that called `broker.monitor`.
  public static let monitorEvent = MonitorEventNotification.method
  /// To an agent: show this prompt.
  public static let agentPrompt = AgentPromptNotification.method
  /// To an agent: feedback for the prompt it shows.
  public static let agentFeedback = AgentFeedbackNotification.method
  /// To an agent: the prompt switches to the passcode.
  public static let agentPasscode = AgentPasscodeNotification.method
  /// To an agent: the prompt ended, with its result.
  public static let agentEnded = AgentEndedNotification.method
  /// To an agent: an evaluation of its user waits on a sensor and no agent shows it.
  public static let agentWaiting = AgentWaitingNotification.method
  /// To an agent: the wait it was told of ended.
  public static let agentWaitEnded = AgentWaitEndedNotification.method
  /// `right.stateChanged {right, state}`.
  public static let rightStateChanged = RightStateChangedNotification.method
  /// `handoff.stateChanged {handoff, state}`.
  public static let handoffStateChanged = HandoffStateChangedNotification.method
}

/// The protocol version this module speaks.
public let protocolVersion = 1

/// Options of a context (`context.create`), the LAContext properties.
public struct ContextOptions: Sendable, Equatable {
  /// LAContext.interactionNotAllowed.
  public var interactionNotAllowed: Bool
  /// touchIDAuthenticationAllowableReuseDuration, 0…300 seconds.
  public var reuseDuration: Double
  /// localizedFallbackTitle; an empty string hides the fallback button.
  public var localizedFallbackTitle: String?
  /// localizedCancelTitle.
  public var localizedCancelTitle: String?

  /// The greatest reuse duration (LATouchIDAuthenticationMaximumAllowableReuseDuration).
  public static let maximumReuseDuration = 300.0

  /// Options with LAContext's defaults.
  public init(
    interactionNotAllowed: Bool = false, reuseDuration: Double = 0,
    localizedFallbackTitle: String? = nil,
    localizedCancelTitle: String? = nil
  ) {
    self.interactionNotAllowed = interactionNotAllowed
    self.reuseDuration = reuseDuration
    self.localizedFallbackTitle = localizedFallbackTitle
    self.localizedCancelTitle = localizedCancelTitle
  }

  /// Reads `context.create` params.
  public init(params: JSONObject) throws(RPCError) {
    let reader = ParamReader(params)
    interactionNotAllowed = try reader.optionalBool("interactionNotAllowed") ?? false
    reuseDuration =
      try reader.optionalDouble("reuseDuration", in: 0...Self.maximumReuseDuration) ?? 0
    localizedFallbackTitle = try reader.optionalString("localizedFallbackTitle")
    localizedCancelTitle = try reader.optionalString("localizedCancelTitle")
  }

  /// The `context.create` params.
  public var params: JSONObject {
    [
      "interactionNotAllowed": .bool(interactionNotAllowed),
      "reuseDuration": .number(JSONNumber(reuseDuration)),
      "localizedFallbackTitle": localizedFallbackTitle.map(JSONValue.string),
      "localizedCancelTitle": localizedCancelTitle.map(JSONValue.string),
    ]
  }
}

/// The result of a successful `context.evaluatePolicy`.
public struct EvaluationSuccess: Sendable, Equatable {
  /// The evaluation's id, as logged.
  public var requestID: String
  /// The policy that was evaluated.
  public var policy: Policy
  /// The sensor that proved it ("face", "passcode", …); nil when reused.
  public var sensor: String?
  /// Whether a recent success of the same context was reused without a prompt.
  public var reused: Bool

  /// A success.
  public init(requestID: String, policy: Policy, sensor: String?, reused: Bool) {
    self.requestID = requestID
    self.policy = policy
    self.sensor = sensor
    self.reused = reused
  }

  /// The result object.
  public var json: JSONValue { .object(object) }

  /// The result's members.
  public var object: JSONObject {
    [
      "requestID": .string(requestID), "policy": policy.json,
      "sensor": sensor.map(JSONValue.string) ?? .null,
      "reused": .bool(reused),
    ]
  }

  /// Reads a result object (client side).
  public init?(json: JSONValue) {
    guard let o = json.objectValue, let id = o["requestID"]?.stringValue,
      let p = o["policy"].flatMap(Policy.init(json:))
    else { return nil }
    self.init(
      requestID: id, policy: p, sensor: o["sensor"]?.stringValue,
      reused: o["reused"]?.boolValue ?? false)
  }
}

extension EvaluationSuccess: MethodResult {}
