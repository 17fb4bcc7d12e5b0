import LocalAuthConcurrency
import LocalAuthProtocol
import RightsStorage
import Sensors

/// The authentication broker: contexts, the machine-wide evaluation queue, the policy engine and
/// device state. An actor whose executor is injected: the daemon passes its event loop, so the loop
/// calls in synchronously with `assumeIsolated`; tests pass a thread executor.
public actor Broker {
  // The broker's state, grouped by what owns it (docs/hacking.md, "Where things live"). At most
  // twelve stored properties (BrokerShapeTests); a new field goes into the component it belongs to.
  let executor: any SerialExecutor
  /// The executor as the loop the sessions' state is bound to (checked in debug builds).
  let onExecutor: ExecutorLoop
  // The configuration and the drivers are read on every request and replaced whole on a reload,
  // so they are exempt from Swift's run-time exclusivity check (~110 instructions an access, three
  // accesses a canEvaluatePolicy; docs/performance.md), as the connection's loop state is: every
  // access is a read, or the one assignment of a reload, on the broker's executor, and none is
  // held across a call that could change them. (`device.owners` keeps its check: its changes run
  // a closure while they hold it.)
  /// The policy settings in force.
  @exclusivity(unchecked) public internal(set) var configuration: BrokerConfiguration
  /// The sensor drivers.
  @exclusivity(unchecked) public internal(set) var sensors: SensorRegistry
  /// What the broker was given and never replaces: clock, log, directories, ids, threads.
  nonisolated let services: BrokerServices
  /// The rights, keys and handoffs: every client's right handles, and the rights store's lane and
  /// backlog.
  var rights: RightsBook
  /// The device's own state: owners, digest key, key store, enrolments, SSH keys.
  var device: DeviceState
  /// The connected clients and their prompt agents.
  var sessions = Sessions()
  /// The evaluations queued, running and in flight, and the prompt deadline's watcher.
  var scheduler = Scheduler()
  /// Outcomes counted, diagnostics, the at-once log budget and the monitors.
  var observability = Observability()
  /// The login passwords kept for a login by presence (Broker+LoginPasswords.swift).
  var keptPasswords = KeptPasswords()

  /// The daemon's version, reported by session.hello and broker.status.
  public nonisolated var version: String { services.version }

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
    let storeWorker = StoreWorker(thread: storage.storeThread)
    services = BrokerServices(
      time: time, log: log, accounts: accounts, processes: processes, hostNames: hostNames,
      random: random, storeWorker: storeWorker, hasher: PasscodeHasher(thread: hashThread),
      version: version, startedAt: time.now())
    rights = RightsBook(
      lane: StoreLane(
        store: storage.store, unavailable: storage.unavailable, worker: storeWorker, log: log))
    self.configuration = configuration
    self.sensors = sensors
    self.executor = executor
    onExecutor = ExecutorLoop(executor)
    let (generations, observed) = Self.enrolments(from: storage.enrolmentGenerations)
    var owners = OwnerBook(Self.owners(from: storage.owners, time: time))
    if let passcode {
      log.notice(
        "Passcode= in the configuration sets the passcode of uid \(configuration.setupOwner); use it for simulations only"
      )
      let uid = configuration.setupOwner
      _ = owners.update(uid) { $0.passcode = .configured(Array(passcode.utf8)) }
    }
    device = DeviceState(
      owners: owners, digestKey: storage.digestKey, keyStore: storage.keyStore,
      enrolmentGenerations: generations, observedEnrolments: observed)
  }

  /// A fresh random UUID (request ids; with a prefix, context and right ids).
  func makeUUID() -> String { LocalAuthBroker.makeUUID(from: services.random) }

  /// A fresh right id.
  func makeRightID() -> String { "right-" + makeUUID().lowercased() }

  // MARK: Clients

  /// Registers a new connection; `wasQuiet` when it was counted by `quietConnectionAccepted()`.
  public func connect(
    peer: PeerIdentity, name: String, channel: any ClientChannel, wasQuiet: Bool = false
  ) -> ClientSession {
    let isAdmin =
      peer.uid == 0 || peer.uid == configuration.adminUserID
      || configuration.adminGroupID.map { peer.gid == $0 || peer.groups.contains($0) } ?? false
    return sessions.connect(
      peer: peer, isAdmin: isAdmin, name: name, channel: channel, wasQuiet: wasQuiet,
      loop: onExecutor)
  }

  /// A connection closed: its evaluations end (a logged drop) and its contexts are dropped.
  public func disconnect(_ client: ClientSession) {
    guard sessions.disconnect(client) else { return }
    if client.monitoring { observability.monitors.unsubscribe(client) }
    for evaluation in Array(client.evaluations.values) {
      services.log.clientDropped(
        pid: client.peer.pid, uid: client.peer.uid, name: client.name,
        requestID: evaluation.requestID,
        reason: "disconnected")
      finish(
        evaluation, .failure(error(.appCancel, evaluation, reason: "clientGone")), answer: false)
    }
    client.contexts.removeAll()
    dropRights(of: client)
    unregisterAgent(of: client)
    logSuppressedAtOnce(now: services.time.now())
  }

  /// A connection was accepted whose client has not made a request yet. It counts as a client
  /// (status, idle exit) but holds no session: the server calls `connect(…, wasQuiet: true)` at
  /// its first request, or `quietConnectionClosed()` if it leaves without one (an idle connection
  /// costs the daemon no session; docs/performance.md, "Idle connections").
  public func quietConnectionAccepted() { sessions.quietConnectionAccepted() }

  /// A connection that never made a request closed.
  public func quietConnectionClosed() { sessions.quietConnectionClosed() }

  /// The number of connected clients, quiet ones included.
  public var clientCount: Int { sessions.count }
  /// How many evaluations wait.
  public var queuedCount: Int { scheduler.queue.count }
  /// Whether an evaluation runs.
  public var isEvaluating: Bool { scheduler.running != nil }

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
    services.log.notice(
      "Passcode= in the configuration sets the passcode of uid \(owner); use it for simulations only"
    )
    updateOwner(owner) { $0.passcode = .configured(Array(passcode.utf8)) }
  }

  /// Waits until every queued state write has reached the store (before the daemon exits).
  public nonisolated func flushStateWrites() { services.storeWorker.drain() }
}
