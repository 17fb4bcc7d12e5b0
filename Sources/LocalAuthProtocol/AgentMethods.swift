/// `agent.register {scope?, pid?}` → `{registered, …}`: the connection becomes the prompt agent
/// for its own uid (scope "user") or for one process (scope "process", `pid`).
public enum AgentRegisterRequest: RequestType {
  /// `agent.register`
  public static let method = "agent.register"
  /// The registration.
  public typealias Result = AgentRegisterResult

  /// `{scope?, pid?}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a registration with this scope ("user", "process") and process.
    public init(scope: String?, pid: Int32?) {
      object = ["scope": scope.map(JSONValue.string), "pid": pid.map { .int(Int($0)) }]
    }
    /// `scope`, default "user".
    public func scope() throws(RPCError) -> String { try reader.optionalString("scope") ?? "user" }
    /// `pid`, optional, 1…Int32.max.
    public func pid() throws(RPCError) -> Int? {
      try reader.optionalInt("pid", in: 1...Int(Int32.max))
    }
  }
}

/// `agent.unregister {}` → `{}`: withdraws the connection's agent registration.
public enum AgentUnregisterRequest: RequestType {
  /// `agent.unregister`
  public static let method = "agent.unregister"
  /// `{}`.
  public typealias Result = EmptyResult
  /// None.
  public typealias Params = NoParams
}

/// `agent.respond {requestID, action, passcode?}` → `{}`: the person's answer to a prompt.
public enum AgentRespondRequest: RequestType {
  /// `agent.respond`
  public static let method = "agent.respond"
  /// `{}`.
  public typealias Result = EmptyResult

  /// `{requestID, action, passcode?}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The answer `action` ("cancel", "fallback", "passcode") to the prompt of `requestID`.
    public init(requestID: String, action: String, passcode: String?) {
      object = [
        "requestID": .string(requestID), "action": .string(action),
        "passcode": passcode.map(JSONValue.string),
      ]
    }
    /// `requestID`, required.
    public func requestID() throws(RPCError) -> String { try reader.nonEmptyString("requestID") }
    /// `action`, required.
    public func action() throws(RPCError) -> String { try reader.nonEmptyString("action") }
    /// `passcode`, required with the action "passcode".
    public func passcode() throws(RPCError) -> String { try reader.nonEmptyString("passcode") }
  }
}

/// `agent.list {user?}` → `{agents}`: the prompt agents of the caller's uid (root: any user's).
public enum AgentListRequest: RequestType {
  /// `agent.list`
  public static let method = "agent.list"
  /// `{agents}`.
  public typealias Result = AgentListResult

  /// `{user?}`.
  public struct Params: OwnerParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The agents of `user` (nil: the caller's own).
    public init(user: JSONValue?) { object = ["user": user] }
  }
}

/// `agent.prompt`: to an agent, show this prompt (requestID, client, user, policy,
/// localizedReason, sensor, titles).
public enum AgentPromptNotification: NotificationType {
  /// `agent.prompt`
  public static let method = "agent.prompt"
  /// The prompt.
  public typealias Params = AgentPromptEvent
}

/// `agent.feedback`: to an agent, feedback for the prompt it shows (no match, a retry reason, a
/// passcode delay).
public enum AgentFeedbackNotification: NotificationType {
  /// `agent.feedback`
  public static let method = "agent.feedback"
  /// The feedback.
  public typealias Params = AgentFeedbackEvent
}

/// `agent.passcode`: to an agent, the prompt switches to the passcode; read one.
public enum AgentPasscodeNotification: NotificationType {
  /// `agent.passcode`
  public static let method = "agent.passcode"
  /// The prompt's requestID.
  public typealias Params = AgentPasscodeEvent
}

/// `agent.ended`: to an agent, the prompt ended, with its result.
public enum AgentEndedNotification: NotificationType {
  /// `agent.ended`
  public static let method = "agent.ended"
  /// The result.
  public typealias Params = AgentEndedEvent
}
