import LocalAuthProtocol

/// A prompt agent, as polkit's agents are: it shows the current user's authentication prompts and answers
/// them with the person's actions. A Swift desktop app (or `localauthctl agent`) registers one, iterates
/// `register()`'s events, and answers each prompt with `cancel`, `fallback` or `submitPasscode`.
///
/// The daemon sends a user's prompts only to that user's own agents (decided by SO_PEERCRED), and only
/// the agent showing a prompt may answer it. The registration lasts as long as the connection.
public struct LAPromptAgent: Sendable {
  /// Which of the user's evaluations the agent shows.
  public enum Scope: Sendable, Equatable {
    /// Every evaluation of the user (the default).
    case user
    /// Evaluations from clients in the agent's own logind session.
    case session
    /// Evaluations from one process of the user (like `pkttyagent --process`).
    case process(pid: Int32)
  }

  /// The connection the agent is registered on.
  public let connection: LocalAuthConnection

  /// An agent on the given connection (the shared one by default).
  public init(connection: LocalAuthConnection = .shared) { self.connection = connection }

  /// `agent.register`: registers and returns the agent's events (prompts, feedback, the switch to the
  /// passcode, ends). The stream ends when the connection to the daemon goes away.
  public func register(scope: Scope = .user) async throws -> (
    registration: LAAgentRegistration, events: AsyncStream<LAAgentEvent>
  ) {
    let params: AgentRegisterRequest.Params
    switch scope {
    case .user: params = .init(scope: "user", pid: nil)
    case .session: params = .init(scope: "session", pid: nil)
    case .process(let pid): params = .init(scope: "process", pid: pid)
    }
    try connection.connect()
    guard let generation = connection.currentGeneration else {
      throw ConnectionError(socketPath: connection.socketPath, errno: -107)  // -ENOTCONN
    }
    let (stream, continuation) = AsyncStream<LAAgentEvent>.makeStream()
    let key = connection.addAgentStream(continuation, generation: generation)
    let connection = self.connection
    continuation.onTermination = { _ in connection.removeAgentStream(key) }
    do {
      let result = try await connection.call(AgentRegisterRequest.self, params)
      return (LAAgentRegistration(result), stream)
    } catch {
      continuation.finish()
      throw error
    }
  }

  /// `agent.unregister`.
  public func unregister() async throws {
    _ = try await connection.call(AgentUnregisterRequest.self, NoParams())
  }

  /// The person pressed Cancel: the evaluation ends with `userCancel`.
  public func cancel(_ prompt: String) async throws {
    try await respond(prompt, action: "cancel")
  }

  /// The person pressed the fallback button: `userFallback`, or the passcode where the policy allows it.
  public func fallback(_ prompt: String) async throws {
    try await respond(prompt, action: "fallback")
  }

  /// The person typed the passcode (when the prompt asks for it, after `LAAgentEvent.passcodeRequested`).
  public func submitPasscode(_ passcode: String, for prompt: String) async throws {
    try await respond(prompt, action: "passcode", passcode: passcode)
  }

  private func respond(_ requestID: String, action: String, passcode: String? = nil) async throws {
    let params = AgentRespondRequest.Params(
      requestID: requestID, action: action, passcode: passcode)
    _ = try await connection.call(AgentRespondRequest.self, params)
  }
}

/// What `agent.register` answered.
public struct LAAgentRegistration: Sendable, Equatable {
  /// The agent's id.
  public var agent: String
  /// The user it serves.
  public var user: String
  /// Its uid.
  public var uid: Int

  init(_ result: AgentRegisterResult) {
    agent = result.agent
    user = result.user
    uid = Int(result.uid)
  }
}

/// A prompt to show: who asks, for whom, why, and on which sensor.
public struct LAAgentPrompt: Sendable, Equatable {
  /// The evaluation's requestID: answer with it.
  public var requestID: String
  /// The requesting client's declared name (untrusted text: sanitize before printing).
  public var clientName: String
  /// The requesting client's pid (from the kernel).
  public var clientPID: Int
  /// The requesting client's uid (from the kernel).
  public var clientUID: Int
  /// The user whose presence is asked for.
  public var user: String
  /// The policy's name.
  public var policy: String
  /// The app's localized reason (untrusted text).
  public var localizedReason: String
  /// The sensor prompted first, if any.
  public var sensor: String?
  /// The cancel button's title.
  public var cancelTitle: String
  /// The fallback button's title; nil when the app hid it.
  public var fallbackTitle: String?
  /// What the passcode stage asks for: the user's login password or localauthd's own passcode.
  public var secret: LAPasscodeSecret
  /// The client's app id, nil when it declared none; untrusted text unless `appIDBound`.
  public var appID: String?
  /// Whether the daemon verified `appID` (bound to the client's executable by `[AppID.ID]`);
  /// false: only the client's word, to be shown as declared.
  public var appIDBound: Bool
  /// For an SSH signature, what is signed, with which key and for which host, as the daemon
  /// worded it from the signed data and the host it verified (agent.prompt's `ssh`); nil otherwise.
  public var ssh: AgentSSHSubject?

  /// A prompt (for previews and tests; the daemon's come from `LAPromptAgent.register`).
  public init(
    requestID: String, clientName: String, clientPID: Int, clientUID: Int, user: String,
    policy: String, localizedReason: String, sensor: String?, cancelTitle: String,
    fallbackTitle: String?, secret: LAPasscodeSecret = .passcode, appID: String? = nil,
    appIDBound: Bool = false, ssh: AgentSSHSubject? = nil
  ) {
    self.ssh = ssh
    self.secret = secret
    self.appID = appID
    self.appIDBound = appIDBound
    self.requestID = requestID
    self.clientName = clientName
    self.clientPID = clientPID
    self.clientUID = clientUID
    self.user = user
    self.policy = policy
    self.localizedReason = localizedReason
    self.sensor = sensor
    self.cancelTitle = cancelTitle
    self.fallbackTitle = fallbackTitle
  }

  init(_ event: AgentPromptEvent) {
    requestID = event.requestID
    clientName = event.clientName
    clientPID = event.clientPID
    clientUID = event.clientUID
    user = event.user
    policy = event.policy
    localizedReason = event.localizedReason
    sensor = event.sensor
    cancelTitle = event.cancelTitle
    fallbackTitle = event.fallbackTitle
    secret = event.secret == "password" ? .password : .passcode
    appID = event.appID?.id
    appIDBound = event.appID?.bound ?? false
    ssh = event.ssh
  }

}

/// What a prompt's passcode stage asks for (`secret` in agent.prompt and agent.passcode;
/// docs/protocol.md, "Prompt agents").
public enum LAPasscodeSecret: String, Sendable, Equatable {
  /// localauthd's own passcode (`localauthctl passcode set`, or a simulation's).
  case passcode
  /// The user's login password (a `Kind=password` sensor), as on a Mac.
  case password

  /// The word a prompt shows: "Password" or "Passcode".
  public var title: String { self == .password ? "Password" : "Passcode" }
}

/// What happens to the prompts an agent shows.
public enum LAAgentEvent: Sendable, Equatable {
  /// Show this prompt.
  case prompt(LAAgentPrompt)
  /// Feedback for a prompt: `noMatch`, a retry reason, `wrongPasscode`, `passcodeDelay` (with the wait),
  /// `fallback` (the prompt goes to the passcode), `fallbackNotOffered`, `awaitingChoice` (Face ID stopped
  /// trying: answer with `fallback` or `cancel`). `lockedOut` is set on the failed
  /// match that locked biometry out; `fallbackOffered` on the failed match from which the
  /// prompt's fallback button may be used.
  case feedback(
    requestID: String, feedback: String, attempt: Int?, retryAfterSeconds: Int?, lockedOut: Bool,
    fallbackOffered: Bool = false)
  /// The prompt now asks for the passcode: read one and `submitPasscode` it.
  case passcodeRequested(requestID: String)
  /// The prompt ended with this result (`success` or an LAError name).
  case ended(requestID: String, result: String)

  init?(method: String, params: JSONObject) {
    switch method {
    case Notification.agentPrompt:
      guard let event = AgentPromptEvent(object: params) else { return nil }
      self = .prompt(LAAgentPrompt(event))
    case Notification.agentFeedback:
      guard let event = AgentFeedbackEvent(object: params) else { return nil }
      self = .feedback(
        requestID: event.requestID, feedback: event.feedback, attempt: event.attempt,
        retryAfterSeconds: event.details.retryAfterSeconds,
        lockedOut: event.details.lockout ?? false,
        fallbackOffered: event.details.offer == "fallback")
    case Notification.agentPasscode:
      guard let event = AgentPasscodeEvent(object: params) else { return nil }
      self = .passcodeRequested(requestID: event.requestID)
    case Notification.agentEnded:
      guard let event = AgentEndedEvent(object: params) else { return nil }
      self = .ended(requestID: event.requestID, result: event.result)
    default: return nil
    }
  }
}
