import CLocalAuthSystem
import Dispatch
import Glibc
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthProtocol
import LocalAuthSocket
import RightStore
import RightsStorage
import Sensors
import SystemFacts
import Systemd

/// The whole daemon: configuration, sensors, broker, sockets, signals and systemd. `run()` serves on
/// the calling thread until SIGTERM/SIGINT (or idle exit) and returns the exit status.
public final class Daemon {
  let options: DaemonOptions
  let log: DaemonLog
  let notifier = ServiceNotifier()
  let time = SystemTimeSource()
  let version = localauthdVersion
  var configuration: DaemonConfiguration
  var loop: EventLoop!
  var server: Server!
  var broker: Broker!
  var socketActivated = false
  var boundPath: String?
  var lastStatus = ""
  var nextStatusUpdate = Duration.zero
  var nextWatchdogPing = Duration.zero
  var idleSince: Duration?
  var exitStatus: Int32 = 0
  /// Prunes dead handoffs every minute, off the event loop (see `openRightStore`).
  var handoffPruneTimer: DispatchSourceTimer?
  /// Where the store keeps its keys (for the start entry); nil without a store.
  var keyStore: KeyStoreStatus?
  /// logind's locks, sleeps and logouts, which close reuse windows.
  var sessionLocks: SessionLockWatcher?

  /// Prepares a daemon: reads the configuration (or fails with file, line and reason).
  public init(options: DaemonOptions) throws(ConfigurationError) {
    self.options = options
    log = DaemonLog(forceStderr: options.forceStderr)
    configuration = try Daemon.loadConfiguration(options)
  }

  static func loadConfiguration(_ options: DaemonOptions) throws(ConfigurationError)
    -> DaemonConfiguration
  {
    if options.demo && options.configPath == nil { return .demo() }
    var configuration = try readConfiguration(ConfigurationSources(options: options))
    if options.demo { configuration.sensors = DaemonConfiguration.demo().sensors }
    return configuration
  }

  /// Reads the main file (when there is one) and every drop-in, and parses them in order.
  static func readConfiguration(_ sources: ConfigurationSources) throws(ConfigurationError)
    -> DaemonConfiguration
  {
    var files: [(path: String, text: String)] = []
    var unreadable: [ConfigurationError] = []
    if let text = readTextFile(sources.mainFile) {
      files.append((sources.mainFile, text))
    } else if sources.mainFileRequired {
      unreadable.append(.unreadable(sources.mainFile, errno: errno))
    }
    for path in sources.dropInFiles() {
      guard let text = readTextFile(path) else {
        unreadable.append(.unreadable(path, errno: errno))
        continue
      }
      files.append((path, text))
    }
    // The files that could be read are still checked, so one run reports every mistake.
    let parsed = Result { () throws(ConfigurationError) in
      try ConfigurationParser.parse(files: files)
    }
    var errors = unreadable
    if case .failure(var error) = parsed {
      let others = error.others
      error.others = []
      errors += [error] + others
    }
    if let error = ConfigurationError.combined(errors) { throw error }
    return try parsed.get()
  }

  var brokerConfiguration: BrokerConfiguration {
    var broker = configuration.broker
    broker.adminGroupID = configuration.adminGroup.flatMap { name in
      getgrnam(name).map { $0.pointee.gr_gid }
    }
    broker.setupOwner = configuration.setupOwnerUID
    if getuid() != 0 { broker.adminUserID = getuid() }
    return broker
  }

  /// Serves until stopped; returns the exit status.
  public func run() throws -> Int32 {
    las_ignore_sigpipe()
    raiseDescriptorLimit()
    var signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    las_block_signals(&signals, Int32(signals.count))
    loop = try EventLoop()
    let stateDirectory = options.resolvedStateDirectory
    let (store, storeUnavailable) = try openRightStore(in: stateDirectory)
    keyStore = store?.keyStore
    let accounts = SystemAccounts()
    // The device owner's account is looked up now, before the loop serves (later on the worker).
    accounts.resolve(.uid(configuration.setupOwnerUID))
    let sensors = SensorRegistry.configured(
      from: configuration, time: time, log: log, bus: EventLoopBus(loop: loop))
    sensors.start()
    broker = Broker(
      configuration: brokerConfiguration,
      sensors: sensors,
      passcode: configuration.passcode, time: time, random: SystemRandomSource(), log: log,
      accounts: accounts.cacheOnly, processes: SystemProcesses(), executor: loop, version: version,
      storage: .read(
        from: store, unavailable: storeUnavailable, log: log,
        storeThread: BelowLoopStoreThread()),
      hashThread: DispatchWorkerThread(label: "localauthd.passcode-hash"),
      hostNames: KnownHostsFile(path: configuration.sshKnownHostsFile))
    keepPasswords(configuration)
    server = try Server(
      loop: loop, broker: broker, limits: configuration.limits, log: log, accounts: accounts)
    try listen()
    sessionLocks = SessionLockWatcher(broker: broker, log: log)
    let signalFD = try SystemError.check(las_signalfd(&signals, Int32(signals.count)), "signalfd")
    loop.register(
      signalFD, events: UInt32(LAS_EPOLLIN), handler: SignalHandler(fd: signalFD, daemon: self))
    // Wake often enough to ping the watchdog (a quarter of its interval), refresh STATUS (250 ms)
    // and notice idleness (1 s); never, when none of them applies.
    var ticks: [Duration] = []
    if let interval = notifier.watchdogInterval {
      nextWatchdogPing = time.now()
      ticks.append(interval / 4)
    }
    if notifier.isSupervised { ticks.append(.milliseconds(250)) }
    if socketActivated && configuration.exitOnIdleSeconds > 0 { ticks.append(.seconds(1)) }
    if let tick = ticks.min() {
      let milliseconds =
        tick.components.seconds * 1000 + tick.components.attoseconds / 1_000_000_000_000_000
      loop.tickMilliseconds = Int32(max(1, milliseconds))
    }
    loop.afterTurn = { [unowned self] in self.afterTurn() }
    let log = self.log
    loop.beforeOutput = { log.flush() }
    announce()
    log.flush()
    notifier.ready(status: statusLine())
    // From here on this thread is the event loop: every store call runs on the store's thread.
    RightStore.forbidUseOnCurrentThread()
    loop.run()
    sessionLocks?.stop()
    broker.flushStateWrites()
    log.flush()
    if let boundPath { unlink(boundPath) }
    return exitStatus
  }

  /// Lets the daemon hold as many clients as the hard limit on open files allows.
  private func raiseDescriptorLimit() {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
  }

  private func announce() {
    let listening = socketActivated ? "socket-activated" : (boundPath ?? "?")
    log.event(
      "localauthd \(version) serving on \(listening); keys: \(Self.keyStoreSummary(keyStore))",
      messageID: MessageID.daemonStarted)
    if options.demo {
      log.notice(
        "demo mode: sensor 'face' (faceID) has identity 'demo-user' and matches after ~1 s; passcode is \(DaemonConfiguration.demoPasscode); both belong to uid \(configuration.setupOwnerUID) (the user running the daemon)"
      )
      if !socketActivated, let boundPath {
        log.notice(
          "try, in another terminal: export LOCALAUTHD_SOCKET=\(boundPath); \(Self.controlToolPath) status (or socat - UNIX-CONNECT:\(boundPath))"
        )
      }
    }
  }

  /// localauthctl's full path when it sits next to this daemon (a build directory), so the demo
  /// hint works from a second terminal where it is not on PATH; else the bare name.
  static var controlToolPath: String {
    guard let daemon = ProcessFacts.executable(of: getpid()), let slash = daemon.lastIndex(of: "/")
    else {
      return "localauthctl"
    }
    let candidate = String(daemon[..<slash]) + "/localauthctl"
    return access(candidate, X_OK) == 0 ? candidate : "localauthctl"
  }

  private func listen() throws {
    let passed = SocketActivation.takeListenFileDescriptors()
    if !passed.isEmpty {
      socketActivated = true
      for descriptor in passed { server.serve(listeningSocket: descriptor.fd) }
      return
    }
    let path = options.resolvedSocketPath
    let fd = try SocketFile.bind(path, mode: 0o666)
    boundPath = path
    server.serve(listeningSocket: fd)
  }

  func statusLine() -> String {
    broker.assumeIsolated { broker in
      "\(broker.clientCount) clients, \(broker.isEvaluating ? 1 : 0) evaluating, \(broker.queuedCount) queued"
    }
  }

  private func afterTurn() {
    log.flush()
    let now = time.now()
    if let interval = notifier.watchdogInterval, now >= nextWatchdogPing {
      notifier.watchdogPing()
      nextWatchdogPing = now + interval / 2
    }
    if notifier.isSupervised, now >= nextStatusUpdate {
      let line = statusLine()
      if line != lastStatus {
        notifier.status(line)
        lastStatus = line
      }
      nextStatusUpdate = now + .milliseconds(200)
    }
    if socketActivated, configuration.exitOnIdleSeconds > 0 {
      let idle = server.clientCount == 0
      if !idle {
        idleSince = nil
      } else if let since = idleSince {
        if now - since >= .seconds(configuration.exitOnIdleSeconds) {
          log.notice(
            "idle for \(configuration.exitOnIdleSeconds) s with no client: exiting (the socket stays)"
          )
          notifier.stopping(status: "idle")
          loop.stop()
        }
      } else {
        idleSince = now
      }
    }
  }

  /// SIGTERM / SIGINT: end every pending evaluation with systemCancel, answer it, exit 0.
  func stop(signal: Int32) {
    notifier.stopping(status: "stopping")
    log.event("localauthd stopping on signal \(signal)", messageID: MessageID.daemonStopping)
    broker.assumeIsolated { $0.shutdown() }
    broker.assumeIsolated { $0.sensors }.stopDrivers(notIn: nil)
    server.closeAll()
    loop.stop()
  }

  /// SIGHUP: re-read configuration and sensors; a bad one is refused and the old one kept. Each
  /// running driver is offered its sensor's new driver (`DriverLifecycle.reload`): kept, or replaced
  /// by the new one, started here, and stopped once the broker has the new registry.
  func reload() {
    notifier.reloading()
    do {
      let fresh = try Daemon.loadConfiguration(options)
      let previous = configuration
      let running = broker.assumeIsolated { $0.sensors }
      configuration = fresh
      let registry = running.reloaded(
        .configured(from: fresh, time: time, log: log, bus: EventLoopBus(loop: loop)))
      registry.start()
      let settings = brokerConfiguration
      // A passcode set at run time (sensors.setPasscode) stays unless the file's Passcode= changed.
      let passcode: String?? = previous.passcode == fresh.passcode ? nil : .some(fresh.passcode)
      broker.assumeIsolated {
        $0.reload(configuration: settings, sensors: registry, passcode: passcode)
      }
      running.stopDrivers(notIn: registry)
      server.limits = fresh.limits
      // A new device owner's account is looked up off the loop; until then it reads as uid-N.
      _ = server.resolver?.whenResolved(.uid(fresh.setupOwnerUID), for: 0) {}
      log.event("configuration reloaded", messageID: MessageID.configurationReloaded)
    } catch {
      log.event(
        "configuration rejected, keeping the old one: \(error)",
        messageID: MessageID.configurationRejected,
        priority: 3)
    }
    notifier.ready(status: statusLine())
  }
}

/// A reason the daemon cannot start.
public struct StartupError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  init(_ description: String) { self.description = description }
}

/// Reads signals from a signalfd on the loop.
final class SignalHandler: LoopHandler {
  let fd: Int32
  unowned let daemon: Daemon

  init(fd: Int32, daemon: Daemon) {
    self.fd = fd
    self.daemon = daemon
  }

  func handle(events: UInt32) {
    while true {
      let signal = las_signalfd_read(fd)
      if signal < 0 { return }
      if signal == SIGHUP { daemon.reload() } else { daemon.stop(signal: signal) }
    }
  }
}

/// Reads a whole text file (at most 4 MiB), or nil.
func readTextFile(_ path: String) -> String? { SmallFile.text(path, limit: 4 << 20) }
