import FoundationEssentials
import LocalAuthProtocol
import Synchronization

/// Receives changes of an `LAEnvironment` (Apple's LAEnvironmentObserver, `LAEnvironment.Observer`
/// in Swift). The method has a default that does nothing, as Apple's is optional. Like Apple's, it
/// does not demand `Sendable`: the environment calls it from a thread of its own
/// (`ObserverThread`), so an observer that touches main-actor state hops there itself
/// (`Task { @MainActor in … }`).
public protocol LAEnvironmentObserver: AnyObject {
  /// The environment's state changed; `environment.state` is the new one.
  func environment(
    _ environment: LAEnvironment, stateDidChangeFromOldState oldState: LAEnvironmentState)
}

extension LAEnvironmentObserver {
  /// Does nothing.
  public func environment(
    _ environment: LAEnvironment, stateDidChangeFromOldState oldState: LAEnvironmentState
  ) {}
}

/// The authentication mechanisms available to the current user and their state (Apple's
/// LAEnvironment, iOS 18 / macOS 15), fed by the daemon: while an observer is registered, the
/// environment follows `broker.monitor` notifications (`monitor.event` "environment", sent when
/// enrollment, lockout, passcode or sensor availability change, and every finished evaluation)
/// and re-reads `sensors.list` and `context.domainState`, on a thread of its own, so observers
/// hear of a change while the app's cooperative threads are blocked. Thread-safe.
///
/// ```swift
/// final class Watcher: LAEnvironmentObserver {
///   func environment(_ environment: LAEnvironment, stateDidChangeFromOldState old: LAEnvironmentState) {
///     print("biometry usable:", environment.state.biometry?.isUsable ?? false)
///   }
/// }
/// LAEnvironment.currentUser.addObserver(watcher)
/// ```
public final class LAEnvironment: Sendable {
  /// The environment of the user running this process, on the shared connection.
  public static let currentUser = LAEnvironment(connection: .shared)

  /// The connection the environment reads over.
  public let connection: LocalAuthConnection

  private struct Observed {
    var observers: [ObjectIdentifier: WeakObserver] = [:]
    var state: LAEnvironmentState?
    var watcher: Task<Void, Never>?
  }

  /// A weak reference to an observer. `@unchecked Sendable`: the environment only keeps it, under
  /// its lock, and calls it, never sharing its state (Apple's observers need not be `Sendable`).
  private struct WeakObserver: @unchecked Sendable {
    weak var observer: (any LAEnvironmentObserver)?
  }

  private let observed = Mutex(Observed())

  /// An environment read over `connection`.
  public init(connection: LocalAuthConnection) { self.connection = connection }

  /// The current state: the last one seen while observers are registered, else read now
  /// (one round trip); empty when the daemon cannot be reached.
  public var state: LAEnvironmentState {
    if let state = observed.withLock({ $0.watcher != nil ? $0.state : nil }) { return state }
    return readNow()
  }

  /// Registers an observer (held weakly); the first one reads the state now (one round trip) and
  /// starts following the daemon, so every later change reaches the observers.
  public func addObserver(_ observer: any LAEnvironmentObserver) {
    let following = observed.withLock { observed -> Bool in
      observed.observers[ObjectIdentifier(observer)] = WeakObserver(observer: observer)
      return observed.watcher != nil
    }
    guard !following else { return }
    let baseline = readNow()
    observed.withLock { observed in
      guard observed.watcher == nil, !observed.observers.isEmpty else { return }
      observed.state = baseline
      observed.watcher = Task(executorPreference: ObserverThread.shared) { [weak self] in
        await self?.follow()
      }
    }
  }

  /// Removes an observer; the last one stops following the daemon.
  public func removeObserver(_ observer: any LAEnvironmentObserver) {
    let watcher = observed.withLock { observed -> Task<Void, Never>? in
      observed.observers[ObjectIdentifier(observer)] = nil
      guard observed.observers.isEmpty else { return nil }
      defer { observed.watcher = nil }
      return observed.watcher
    }
    watcher?.cancel()
  }

  /// Reads the state with blocking calls.
  private func readNow() -> LAEnvironmentState {
    let sensors = (try? connection.callAndWait(ListSensorsRequest.self, .init()))?.sensors ?? []
    let domain = try? connection.callAndWait(DomainStateRequest.self, .init(context: nil))
    return LAEnvironmentState(sensors: sensors, domainState: LADomainState(domain))
  }

  /// Reads the state with async calls.
  private func read() async -> LAEnvironmentState {
    let sensors = (try? await connection.call(ListSensorsRequest.self, .init()))?.sensors ?? []
    let domain = try? await connection.call(DomainStateRequest.self, .init(context: nil))
    return LAEnvironmentState(sensors: sensors, domainState: LADomainState(domain))
  }

  /// Follows the daemon's monitor events until cancelled, resubscribing after a lost connection.
  private func follow() async {
    while !Task.isCancelled {
      let events = try? await LocalAuthDaemon(connection: connection).monitor()
      await refresh()
      if let events {
        for await event in events {
          if Task.isCancelled { return }
          if event.event == "environment" || event.event == "finished" { await refresh() }
        }
      }
      try? await Task.sleep(for: .seconds(1))
    }
  }

  /// Reads the state and tells the observers if it changed.
  private func refresh() async {
    let new = await read()
    let (old, observers) = observed.withLock { observed in
      let old = observed.state
      observed.state = new
      return (old, Array(observed.observers.values))
    }
    guard let old, old != new else { return }
    for entry in observers {
      entry.observer?.environment(self, stateDidChangeFromOldState: old)
    }
  }
}

extension LAEnvironment {
  /// Apple's Swift name for `LAEnvironmentObserver`.
  public typealias Observer = LAEnvironmentObserver
  /// Apple's Swift name for `LAEnvironmentState`.
  public typealias State = LAEnvironmentState
  /// Apple's Swift name for `LAEnvironmentMechanism`.
  public typealias Mechanism = LAEnvironmentMechanism
  /// Apple's Swift name for `LAEnvironmentMechanismBiometry`.
  public typealias MechanismBiometry = LAEnvironmentMechanismBiometry
  /// Apple's Swift name for `LAEnvironmentMechanismUserPassword`.
  public typealias MechanismUserPassword = LAEnvironmentMechanismUserPassword
  /// Apple's Swift name for `LAEnvironmentMechanismCompanion`.
  public typealias MechanismCompanion = LAEnvironmentMechanismCompanion
}
