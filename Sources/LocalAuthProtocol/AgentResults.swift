// The answers of docs/protocol.md's prompt-agent methods.

/// `agent.register`'s answer: the agent's id, whom it serves and for what.
public struct AgentRegisterResult: MethodResult, Equatable {
  /// The agent's id.
  public var agent: String
  /// The uid it serves (its own, from SO_PEERCRED).
  public var uid: UInt32
  /// That account's name.
  public var user: String
  /// `{kind: "user"}`, `{kind: "session", session}` or `{kind: "process", pid}`.
  public var scope: JSONObject
  /// An answer.
  public init(agent: String, uid: UInt32, user: String, scope: JSONObject) {
    self.agent = agent
    self.uid = uid
    self.user = user
    self.scope = scope
  }
  /// `{agent, uid, user, scope}`.
  public var json: JSONValue {
    [
      "agent": .string(agent), "uid": .int(Int(uid)), "user": .string(user),
      "scope": .object(scope),
    ]
  }
  /// From `{agent, uid, user, scope}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let agent = object["agent"]?.stringValue else {
      return nil
    }
    self.agent = agent
    uid = UInt32(clamping: object["uid"]?.intValue ?? 0)
    user = object["user"]?.stringValue ?? ""
    scope = object["scope"]?.objectValue ?? [:]
  }
}

/// One registered agent as `agent.list` shows it.
public struct ListedAgent: Sendable, Equatable {
  /// The agent's process.
  public var pid: Int
  /// "user", "session" or "process".
  public var scope: String
  /// The logind session it serves (scope "session").
  public var session: String?
  /// The process it serves (scope "process").
  public var process: Int?
  /// When it registered, in seconds since the epoch.
  public var since: Int
  /// An entry.
  public init(pid: Int, scope: String, session: String? = nil, process: Int? = nil, since: Int) {
    self.pid = pid
    self.scope = scope
    self.session = session
    self.process = process
    self.since = since
  }
  /// `{pid, scope, since, session?, process?}`.
  public var json: JSONValue {
    [
      "pid": .int(pid), "scope": .string(scope), "since": .int(since),
      "session": session.map(JSONValue.string), "process": process.map(JSONValue.int),
    ]
  }
  /// From its object.
  public init(json: JSONValue) {
    let object = json.objectValue ?? [:]
    pid = object["pid"]?.intValue ?? -1
    scope = object["scope"]?.stringValue ?? ""
    session = object["session"]?.stringValue
    process = object["process"]?.intValue
    since = object["since"]?.intValue ?? 0
  }
}

/// `agent.list`'s answer.
public struct AgentListResult: MethodResult, Equatable {
  /// The uid whose agents these are.
  public var uid: UInt32
  /// Its connected agents.
  public var agents: [ListedAgent]
  /// An answer.
  public init(uid: UInt32, agents: [ListedAgent]) {
    self.uid = uid
    self.agents = agents
  }
  /// `{uid, agents: […]}`.
  public var json: JSONValue { ["uid": .int(Int(uid)), "agents": .array(agents.map(\.json))] }
  /// From `{uid, agents}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let list = object["agents"]?.arrayValue else {
      return nil
    }
    uid = UInt32(clamping: object["uid"]?.intValue ?? 0)
    agents = list.map(ListedAgent.init(json:))
  }
}
