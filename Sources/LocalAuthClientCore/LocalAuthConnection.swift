import Dispatch
import FoundationEssentials
import LocalAuthProtocol
import Synchronization

/// One connection to localauthd, shared by any number of contexts, rights and tools.
///
/// Requests are pipelined (many in flight, matched by id) and progress notifications are
/// routed to their evaluation. The socket is opened lazily by the first call; when the daemon
/// goes away (restart, socket activation), every call in flight fails with
/// `LAError.systemCancel` (reason "connectionLost") and the next call connects again.
/// Thread-safe: state lives behind a Mutex, reading happens on a dedicated thread.
public final class LocalAuthConnection: Sendable {
  /// The connection `LAContext()` and `LARightStore.shared` use by default.
  public static let shared = LocalAuthConnection()

  /// The explicit socket path, or nil to resolve it at each connect (see `SocketPath`).
  public let explicitSocketPath: String?
  /// What this client declares in `session.hello`.
  public let identity: ClientIdentity

  struct State {
    var link: SocketLink?
    var ready = false
    var generation = 0
    var nextID = 1
    var calls = CallTable()
    var monitors: [Int: AsyncStream<MonitorEvent>.Continuation] = [:]
    /// The rights with a daemon handle, for `right.stateChanged` (weak: a right's deinit releases it).
    var rights: [JSONValue: RightReference] = [:]
    /// The `handoff.stateChanged` streams, each tied to the socket it was opened on.
    var handoffWatchers: [Int: HandoffWatcher] = [:]
    /// The prompt-agent streams (`LAPromptAgent`), each tied to the socket it registered on.
    var agentStreams: [Int: AgentStream] = [:]
    var server: ServerInfo?
  }

  let state = Mutex(State())
  /// Serialises connection attempts; held while one thread connects and says hello.
  private let connecting = Mutex(())

  /// A connection to the daemon at `socketPath` (or the resolved default), declaring `identity`.
  public init(socketPath: String? = nil, identity: ClientIdentity = ClientIdentity()) {
    explicitSocketPath = socketPath
    self.identity = identity
  }

  /// The path the next connect will use.
  public var socketPath: String { SocketPath.resolve(explicit: explicitSocketPath) }

  /// What the daemon said in answer to `session.hello` on the current socket, if it answered.
  public var serverInfo: ServerInfo? { state.withLock { $0.server } }

  /// The generation of the current socket, nil when disconnected; context handles are valid for one generation.
  var currentGeneration: Int? { state.withLock { $0.ready ? $0.generation : nil } }

  /// Connects now if not connected (blocking connect and hello, a local round trip).
  public func connect() throws(ConnectionError) {
    _ = try link()
  }

  /// Drops the socket: calls in flight fail with systemCancel; the next call connects again.
  public func disconnect() {
    state.withLock { $0.link }?.shutdown()
  }

  /// Calls a method and returns its result. Throws `LAError` for LocalAuthentication codes,
  /// `RPCError` for broker and protocol errors, `ConnectionError` when the daemon cannot be reached.
  func call(_ method: String, _ params: JSONObject = [:]) async throws -> JSONValue {
    try await withCheckedThrowingContinuation { continuation in
      start(method, params) { continuation.resume(with: $0) }
    }
  }

  /// Calls the method of request type `R` with its typed params and returns its typed result
  /// (the spelling of the method and of each field is the type's, shared with the server).
  /// Throws as `call(_:_:)`, and `RPCError` internalError for an answer of the wrong shape.
  public func call<R: RequestType>(_ request: R.Type, _ params: R.Params) async throws -> R.Result {
    try Self.typed(R.self, try await call(R.method, params.object))
  }

  /// The blocking form of `call(_:_:)` for a request type.
  public func callAndWait<R: RequestType>(_ request: R.Type, _ params: R.Params) throws -> R.Result
  {
    try Self.typed(R.self, try callAndWait(R.method, params.object))
  }

  /// A result read as `R`'s; internalError when the daemon's answer does not have its shape.
  static func typed<R: RequestType>(_: R.Type, _ json: JSONValue) throws(RPCError) -> R.Result {
    guard let result = R.Result(json: json) else {
      throw RPCError(.internalError, "The daemon's answer to \(R.method) has an unexpected shape.")
    }
    return result
  }

  /// `session.setActive`: the app went to the background (false) or came back. Going inactive
  /// ends this client's running evaluation with systemCancel, as iOS does.
  public func setActive(_ active: Bool) async throws {
    _ = try await call(SetActiveRequest.self, .init(active: active))
  }

  /// The blocking form of `call`, for LAContext's synchronous API. The reader thread answers it,
  /// so it never waits on Swift's cooperative pool.
  func callAndWait(_ method: String, _ params: JSONObject = [:]) throws -> JSONValue {
    try callAndWait(method, params, checkEvery: nil) { false }
  }

  /// `callAndWait`, ended early when the one it is made for goes away: while the answer is awaited,
  /// `abandoned` is asked every `checkEvery` (nil: never), and once it says true the request's
  /// evaluation is cancelled (`evaluation.cancel {id}`: the daemon ends it with appCancel at once)
  /// and that answer is returned as any other.
  public func callAndWait<R: RequestType>(
    _ request: R.Type, _ params: R.Params, checkEvery: Duration?, abandoned: () -> Bool
  ) throws -> R.Result {
    try Self.typed(
      R.self, try callAndWait(R.method, params.object, checkEvery: checkEvery, abandoned: abandoned)
    )
  }

  /// The untyped form of the cancellable `callAndWait`.
  func callAndWait(
    _ method: String, _ params: JSONObject, checkEvery: Duration?, abandoned: () -> Bool
  ) throws -> JSONValue {
    let answer = Mutex<Result<JSONValue, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let id = start(method, params) { result in
      answer.withLock { $0 = result }
      done.signal()
    }
    if let checkEvery, let id {
      let (seconds, attoseconds) = checkEvery.components
      let interval = DispatchTimeInterval.nanoseconds(
        Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
      var cancelled = false
      while done.wait(timeout: .now() + interval) == .timedOut {
        guard !cancelled, abandoned() else { continue }
        cancelled = true
        start(CancelEvaluationRequest.method, ["id": .int(id)]) { _ in }
      }
    } else {
      done.wait()
    }
    return try answer.withLock { $0! }.get()
  }

  /// Sends a request; `completion` runs exactly once (response, connection loss, or connect failure).
  /// Returns the JSON-RPC id used, nil when nothing was sent.
  @discardableResult
  func start(
    _ method: String, _ params: JSONObject, onEvent: (@Sendable (LAEvaluationEvent) -> Void)? = nil,
    completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) -> Int? {
    let link: SocketLink
    do { link = try self.link() } catch {
      completion(.failure(error))
      return nil
    }
    return send(method, params, on: link, onEvent: onEvent, completion: completion)
  }

  private func send(
    _ method: String, _ params: JSONObject, on link: SocketLink,
    onEvent: (@Sendable (LAEvaluationEvent) -> Void)? = nil,
    completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) -> Int? {
    let id: Int? = state.withLock { state in
      guard state.link === link else { return nil }
      let id = state.nextID
      state.nextID += 1
      state.calls.add(
        id: id,
        PendingCall(
          method: method, generation: link.generation, completion: completion, onEvent: onEvent))
      // Queued under the lock, so requests reach the daemon in id order (notification routing relies on it).
      link.send(RPCRequest(method: method, params: params, id: .int(id)))
      return id
    }
    guard let id else {
      completion(.failure(Self.connectionLost))
      return nil
    }
    return id
  }

  /// Asks the daemon to cancel an evaluation sent with call id `id`: by requestID when known,
  /// else by the JSON-RPC id; a cancel by requestID follows as soon as the requestID is learnt.
  func cancelEvaluation(callID id: Int) {
    let (inFlight, requestID) = state.withLock {
      ($0.calls.contains(id), $0.calls.requestCancel(id: id))
    }
    guard inFlight else { return }
    let params =
      requestID.map(CancelEvaluationRequest.Params.init(requestID:))
      ?? CancelEvaluationRequest.Params(id: .int(id))
    start(CancelEvaluationRequest.method, params.object) { _ in }
  }

  /// The error calls in flight get when the socket goes away.
  static let connectionLost = LAError(
    .systemCancel, message: "The connection to localauthd was lost.", reason: "connectionLost")

  /// The ready socket, connecting (and saying hello) first if needed.
  private func link() throws(ConnectionError) -> SocketLink {
    if let link = state.withLock({ $0.ready ? $0.link : nil }) { return link }
    return try connecting.withLock { _ throws(ConnectionError) -> SocketLink in
      if let link = state.withLock({ $0.ready ? $0.link : nil }) { return link }
      let path = socketPath
      let generation = state.withLock { state in
        state.generation += 1
        return state.generation
      }
      let link = try SocketLink.connect(path: path, generation: generation).get()
      state.withLock { state in
        state.link = link
        state.server = nil
      }
      link.start(
        onMessage: { [weak self] in self?.receive($0) },
        onClose: { [weak self] in self?.closed(link) })
      sayHello(on: link)
      state.withLock { state in
        if state.link === link { state.ready = true }
      }
      return link
    }
  }

  /// Sends `session.hello` and waits for its answer, so the daemon knows whether this client
  /// is interactive before its first evaluation. An error answer (an older daemon) is ignored.
  private func sayHello(on link: SocketLink) {
    let done = DispatchSemaphore(value: 0)
    _ = send(HelloRequest.method, identity.helloParams.object, on: link) { [weak self] result in
      if case .success(let json) = result {
        self?.state.withLock { $0.server = HelloResult(json: json).map(ServerInfo.init) }
      }
      done.signal()
    }
    _ = done.wait(timeout: .now() + 10)
  }

  private func receive(_ message: ServerMessage) {
    switch message {
    case .response(let id, let result):
      guard case .number(let number) = id, let callID = number.intValue,
        let call = state.withLock({ $0.calls.complete(id: callID) })
      else { return }
      call.completion(result.mapError { clientError($0) })
    case .notification(let method, let params):
      if routeStateNotification(method, params) { return }
      if routeAgentNotification(method, params) { return }
      if method == Notification.monitorEvent {
        let event = MonitorEvent(params: params)
        for monitor in state.withLock({ Array($0.monitors.values) }) { monitor.yield(event) }
        return
      }
      guard let event = LAEvaluationEvent(method: method, params: params) else { return }
      let hint = LAEvaluationEvent.callID(announcedIn: method, params)
      guard let route = state.withLock({ $0.calls.route(event, callID: hint) }) else { return }
      if route.cancelOwed {
        start(
          CancelEvaluationRequest.method,
          CancelEvaluationRequest.Params(requestID: event.requestID).object
        ) { _ in }
      }
      route.onEvent?(event)
    }
  }

  private func closed(_ link: SocketLink) {
    let (lost, monitors) = state.withLock { state in
      if state.link === link {
        state.link = nil
        state.ready = false
      }
      let monitors = Array(state.monitors.values)
      state.monitors.removeAll()
      return (state.calls.removeAll(generation: link.generation), monitors)
    }
    for call in lost { call.completion(.failure(Self.connectionLost)) }
    for monitor in monitors { monitor.finish() }
    forgetObjects(generation: link.generation)
  }

  /// Registers a monitor stream; returns its key.
  func addMonitor(_ continuation: AsyncStream<MonitorEvent>.Continuation) -> Int {
    state.withLock { state in
      let key = state.nextID
      state.nextID += 1
      state.monitors[key] = continuation
      return key
    }
  }

  /// Removes a monitor stream.
  func removeMonitor(_ key: Int) {
    _ = state.withLock { $0.monitors.removeValue(forKey: key) }
  }

  deinit {
    state.withLock { $0.link }?.shutdown()
  }
}
