import LocalAuthConcurrency
import LocalAuthProtocol
import RightsStorage
import Sensors

/// The authentication broker: contexts, the machine-wide evaluation queue, the policy engine and
/// device state. An actor whose executor is injected: the daemon passes its event loop, so the loop
/// calls in synchronously with `assumeIsolated`; tests pass a thread executor.
public actor Broker {
  let executor: any SerialExecutor
  /// The executor as the loop the sessions' state is bound to (checked in debug builds).
  let onExecutor: ExecutorLoop
  // The configuration and the drivers are read on every request and replaced whole on a reload,
  // so they are exempt from Swift's run-time exclusivity check (~110 instructions an access, three
  // accesses a canEvaluatePolicy; docs/performance.md), as the connection's loop state is: every
  // access is a read, or the one assignment of a reload, on the broker's executor, and none is
  // held across a call that could change them. (`owners` keeps its check: its changes run a
  // closure while they hold it.)
  /// The policy settings in force.
  @exclusivity(unchecked) public internal(set) var configuration: BrokerConfiguration
  /// The sensor drivers.
  @exclusivity(unchecked) public internal(set) var sensors: SensorRegistry
  let time: any TimeSource
  let log: any EvaluationLog
  /// Names for uids and uids for names (injected: the broker does no I/O).
  let accounts: any AccountDirectory
  /// Who owns a running process (injected: the broker does no I/O).
  let processes: any ProcessDirectory
  /// Verified names of SSH host keys, for the sign-in prompt (injected: the broker does no I/O).
  let hostNames: any HostNameDirectory
  /// The rights, keys and handoffs: every client's right handles, and the rights store's lane and
  /// backlog.
  var rights: RightsBook
  /// The rights store's thread (the rights book's lane runs on it), drained at exit.
  let storeWorker: StoreWorker
  /// Where request, context and right ids come from (injected: the broker draws no randomness).
  let random: any RandomSource
  /// Every owner's state by uid (loaded once at start from the store, written through the store
  /// worker) and the passcode work in flight.
  var owners = OwnerBook()
  /// Where passcode hashes are computed, off the event loop.
  nonisolated let hasher: PasscodeHasher
  /// The key of domainState digests: derived from the device key, or random for a run without a store.
  let digestKey: [UInt8]
  /// Where the store keeps its keys, for `broker.status`; nil without a store.
  let keyStore: KeyStoreStatus?
  /// The registered prompt agents.
  var agents = AgentRegistry()
  /// The setup owner's account, looked up once (device mode).
  var setupOwnerAccount: SensorOwner?
  var clients: [Int: ClientSession] = [:]
  /// Connections whose client has not made a request yet (no session; see `quietConnectionAccepted`).
  var quietConnections = 0
  var nextClientNumber = 0
  /// The evaluations waiting for the sensors, their limits and fair order.
  var queue = EvaluationQueue()
  var running: Evaluation?
  var evaluations: [String: Evaluation] = [:]
  /// The SSH keys signed with since start and their contexts (reuse grants).
  var sshKeys = SSHKeyCache()
  /// The login passwords kept for a login by presence (Broker+LoginPasswords.swift).
  var keptPasswords = KeptPasswords()
  var outcomes: [String: Int] = [:]
  /// How many lines a uid's evaluations that end at once may log per second.
  var atOnceLogBudget = AtOnceLogBudget()
  var shuttingDown = false
  var deadlineWatcher: Task<Void, Never>?
  /// The re-prompt detectors and evaluation traces.
  let diagnostics = EvaluationDiagnostics()
  let startedAt: Duration
  /// The daemon's version, reported by session.hello and broker.status.
  public let version: String

  /// Runs on the given executor.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// A broker over the given sensors; `passcode` is the device passcode at start (nil: not set).
  /// Everything it would otherwise read from the system comes in: `storage` (the store and what it
  /// had saved), `accounts` and `processes`, the clock (`time`), ids (`random`), a thread for
  /// passcode hashes (`hashThread`), and `hostNames` for SSH sign-in prompts (default: none
  /// verified).
  public init(
    configuration: BrokerConfiguration, sensors: SensorRegistry, passcode: String?,
    time: any TimeSource, random: any RandomSource,
    log: any EvaluationLog, accounts: any AccountDirectory, processes: any ProcessDirectory,
    executor: any SerialExecutor, version: String = "0.1.0", storage: BrokerStorage,
    hashThread: any WorkerThread, hostNames: any HostNameDirectory = NoVerifiedHostNames()
  ) {
    self.accounts = accounts
    self.processes = processes
    self.hostNames = hostNames
    self.random = random
    let storeWorker = StoreWorker(thread: storage.storeThread)
    self.storeWorker = storeWorker
    hasher = PasscodeHasher(thread: hashThread)
    rights = RightsBook(
      lane: StoreLane(
        store: storage.store, unavailable: storage.unavailable, worker: storeWorker, log: log))
    self.configuration = configuration
    self.sensors = sensors
    self.time = time
    self.log = log
    self.executor = executor
    onExecutor = ExecutorLoop(executor)
    self.version = version
    startedAt = time.now()
    digestKey = storage.digestKey
    keyStore = storage.keyStore
    owners = OwnerBook(Self.owners(from: storage.owners, time: time))
    (enrolmentGenerations, observedEnrolments) = Self.enrolments(
      from: storage.enrolmentGenerations)
    if let passcode {
      log.notice(
        "Passcode= in the configuration sets the passcode of uid \(configuration.setupOwner); use it for simulations only"
      )
      let uid = configuration.setupOwner
      _ = owners.update(uid) { $0.passcode = .configured(Array(passcode.utf8)) }
    }
  }

  /// A fresh random UUID (request ids; with a prefix, context and right ids).
  func makeUUID() -> String { LocalAuthBroker.makeUUID(from: random) }

  /// A fresh right id.
  func makeRightID() -> String { "right-" + makeUUID().lowercased() }

  // MARK: Clients

  /// Registers a new connection; `wasQuiet` when it was counted by `quietConnectionAccepted()`.
  public func connect(
    peer: PeerIdentity, name: String, channel: any ClientChannel, wasQuiet: Bool = false
  ) -> ClientSession {
    if wasQuiet { quietConnections -= 1 }
    nextClientNumber += 1
    let isAdmin =
      peer.uid == 0 || peer.uid == configuration.adminUserID
      || configuration.adminGroupID.map { peer.gid == $0 || peer.groups.contains($0) } ?? false
    let session = ClientSession(
      number: nextClientNumber, peer: peer, isAdmin: isAdmin, name: name, channel: channel,
      loop: onExecutor)
    clients[session.number] = session
    return session
  }

  /// A connection closed: its evaluations end (a logged drop) and its contexts are dropped.
  public func disconnect(_ client: ClientSession) {
    guard client.connected else { return }
    client.connected = false
    clients[client.number] = nil
    if client.monitoring { monitors.unsubscribe(client) }
    for evaluation in Array(client.evaluations.values) {
      log.clientDropped(
        pid: client.peer.pid, uid: client.peer.uid, name: client.name,
        requestID: evaluation.requestID,
        reason: "disconnected")
      finish(
        evaluation, .failure(error(.appCancel, evaluation, reason: "clientGone")), answer: false)
    }
    client.contexts.removeAll()
    dropRights(of: client)
    unregisterAgent(of: client)
    logSuppressedAtOnce(now: time.now())
  }

  /// A connection was accepted whose client has not made a request yet. It counts as a client
  /// (status, idle exit) but holds no session: the server calls `connect(…, wasQuiet: true)` at
  /// its first request, or `quietConnectionClosed()` if it leaves without one (an idle connection
  /// costs the daemon no session; docs/performance.md, "Idle connections").
  public func quietConnectionAccepted() { quietConnections += 1 }

  /// A connection that never made a request closed.
  public func quietConnectionClosed() { quietConnections -= 1 }

  /// The number of connected clients, quiet ones included.
  public var clientCount: Int { clients.count + quietConnections }
  /// How many evaluations wait.
  public var queuedCount: Int { queue.count }
  /// Whether an evaluation runs.
  public var isEvaluating: Bool { running != nil }

  // MARK: Queue

  func enqueue(_ evaluation: Evaluation) {
    diagnoseSubmitted(evaluation)
    evaluations[evaluation.requestID] = evaluation
    evaluation.client.evaluations[evaluation.requestID] = evaluation
    evaluation.context.inFlight = evaluation
    if evaluation.isSystem {
      enqueueSystem(evaluation)
      return
    }
    preempt(for: evaluation)
    if running == nil && queue.isEmpty {
      start(evaluation)
      return
    }
    let position = queue.append(evaluation)
    notify(
      evaluation, QueuedNotification.self,
      QueuedEvent(requestID: evaluation.requestID, id: evaluation.rpcID, position: position))
    monitor(evaluation, "queued", ["position": .int(position)])
  }

  func start(_ evaluation: Evaluation) {
    evaluation.phase = .running
    running = evaluation
    queue.started(evaluation)
    traceStarted(evaluation)
    evaluation.sensor = plannedSensor(for: evaluation.policy, owner: evaluation.owner.uid)
    showPrompt(evaluation)
    if promptIsShown(evaluation) {
      notify(
        evaluation, StartedNotification.self,
        StartedEvent(
          requestID: evaluation.requestID, id: evaluation.rpcID, policy: evaluation.policy))
    }
    monitor(evaluation, "started", [:])
    log.evaluationStarted(record(evaluation))
    evaluation.deadline = time.now() + configuration.promptTimeout
    watchPromptDeadline()
    evaluation.task = Task {
      let outcome = await self.run(evaluation)
      self.finish(evaluation, outcome)
    }
  }

  func startNext() {
    guard running == nil, let next = queue.popNext() else { return }
    start(next)
  }

  /// Ends an evaluation exactly once: answers (a responder only while its client is connected),
  /// logs, frees its context and, if it was running, starts the next one. Later calls for the same
  /// evaluation do nothing.
  func finish(_ evaluation: Evaluation, _ outcome: EvaluationOutcome, answer: Bool = true) {
    guard evaluation.phase != .finished else { return }
    let wasRunning = evaluation.phase == .running
    let wasQueued = evaluation.phase == .queued
    evaluation.phase = .finished
    evaluations[evaluation.requestID] = nil
    evaluation.client.evaluations[evaluation.requestID] = nil
    if evaluation.context.inFlight === evaluation { evaluation.context.inFlight = nil }
    if wasQueued { queue.remove(evaluation) }
    evaluation.task?.cancel()
    if case .success(let success) = outcome { grantReuse(evaluation, success) }
    notePresence(evaluation, outcome)
    let result = account(outcome, of: evaluation)
    diagnoseFinished(evaluation, result)
    var event: JSONObject = ["result": .string(result.name)]
    if let reason = result.reason { event["reason"] = .string(reason) }
    monitor(evaluation, "finished", event)
    notifyAgent(
      evaluation, AgentEndedNotification.self,
      AgentEndedEvent(requestID: evaluation.requestID, result: result.name, reason: result.reason))
    evaluation.agent = nil
    switch evaluation.delivery {
    case .handler:
      // Broker code (an SSH signature, a handoff's authorization) waits on its handler: it hears
      // every end, a client gone included, or its task would wait forever.
      evaluation.delivery.deliver(outcome)
    case .responder:
      if answer && evaluation.client.connected { evaluation.delivery.deliver(outcome) }
    }
    if wasRunning && running === evaluation {
      running = nil
      startNext()
    }
  }

  // MARK: Helpers

  /// Counts an outcome for broker.status and logs the evaluation's finish: one line each, but for
  /// evaluations that ended at once (`atOnce`) past their uid's `AtOnceLogBudget`, which are
  /// counted and reported together.
  @discardableResult
  func account(
    _ outcome: EvaluationOutcome, of evaluation: Evaluation, successReason: String? = nil,
    atOnce: Bool = false
  ) -> EvaluationResult {
    let result: EvaluationResult
    switch outcome {
    case .success:
      result = EvaluationResult(name: "success", code: nil, reason: successReason)
    case .failure(let error):
      result = EvaluationResult(
        name: error.code.name, code: error.code, reason: error.data["reason"]?.stringValue)
    }
    outcomes[result.name, default: 0] += 1
    let now = time.now()
    logSuppressedAtOnce(now: now)
    if !atOnce
      || atOnceLogBudget.admit(uid: evaluation.client.peer.uid, outcome: result.name, now: now)
    {
      log.evaluationFinished(record(evaluation), result: result)
    }
    announceEnvironmentChange()
    return result
  }

  /// Logs, one entry per uid, the evaluations that ended at once and were held back by the budget
  /// in a second that is over.
  func logSuppressedAtOnce(now: Duration) {
    for report in atOnceLogBudget.dueReports(now: now) {
      let outcomes = report.suppressed.sorted { $0.key < $1.key }
        .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
      log.notice(
        "uid \(report.uid): \(report.total) more evaluations ended at once within a second "
          + "and were not logged one by one (past \(AtOnceLogBudget.perSecond) a second): \(outcomes)"
      )
    }
  }

  func record(_ evaluation: Evaluation) -> EvaluationRecord {
    EvaluationRecord(
      requestID: evaluation.requestID, contextID: evaluation.context.id,
      clientPID: evaluation.client.peer.pid,
      clientUID: evaluation.client.peer.uid, clientName: evaluation.client.name,
      ownerUID: evaluation.owner.uid,
      policy: evaluation.policy,
      sensor: evaluation.sensor)
  }

  func error(
    _ code: ErrorCode, _ evaluation: Evaluation, reason: String? = nil, message: String? = nil
  ) -> RPCError {
    RPCError(
      code, message,
      data: ["requestID": .string(evaluation.requestID), "reason": reason.map(JSONValue.string)])
  }

  /// The connections that called `broker.monitor`.
  var monitors = MonitorSubscribers()
  /// Per owner: enrolment changes counted (kept in the rights store), and the enrolled set last
  /// seen (see `appDomainState`).
  var enrolmentGenerations: [UInt32: Int] = [:]
  var observedEnrolments: [UInt32: String] = [:]

  /// Ends the running evaluation with systemCancel (`reason: "timeout"`) once its prompt deadline
  /// passes. One watcher serves every evaluation: it wakes at the deadline or every second and
  /// leaves when nothing runs, so finished evaluations leave no timer behind.
  func watchPromptDeadline() {
    guard deadlineWatcher == nil else { return }
    deadlineWatcher = Task {
      while let current = self.running, let deadline = current.deadline {
        let now = self.time.now()
        if now >= deadline {
          self.finish(current, .failure(self.error(.systemCancel, current, reason: "timeout")))
          continue
        }
        do {
          try await self.time.sleep(until: min(deadline, now + .seconds(1)))
        } catch {
          break
        }
      }
      self.deadlineWatcher = nil
    }
  }

  /// Ends every queued and running evaluation with systemCancel and refuses new ones (SIGTERM).
  public func shutdown() {
    shuttingDown = true
    deadlineWatcher?.cancel()
    for evaluation in queue.waiting + (running.map { [$0] } ?? []) {
      finish(evaluation, .failure(error(.systemCancel, evaluation, reason: "shutdown")))
    }
    // What the at-once log budget still holds back is counted in the log now, not lost with the
    // process: a second from now, every window it keeps is over.
    logSuppressedAtOnce(now: time.now() + .seconds(1))
  }

  /// Replaces the policy settings and sensors (SIGHUP); evaluations in flight keep their sensors.
  public func reload(
    configuration: BrokerConfiguration, sensors: SensorRegistry, passcode: String??
  ) {
    self.configuration = configuration
    self.sensors = sensors
    guard let change = passcode else { return }
    let owner = configuration.setupOwner
    guard let passcode = change else {
      updateOwner(owner) { $0.passcode = nil }
      return
    }
    log.notice(
      "Passcode= in the configuration sets the passcode of uid \(owner); use it for simulations only"
    )
    updateOwner(owner) { $0.passcode = .configured(Array(passcode.utf8)) }
  }

  /// Waits until every queued state write has reached the store (before the daemon exits).
  public nonisolated func flushStateWrites() { storeWorker.drain() }
}
