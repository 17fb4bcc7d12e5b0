import FoundationEssentials
import LocalAuthProtocol
import Synchronization

/// A grouped set of requirements that gate access to a resource (Apple's LARight), kept by the daemon.
///
/// The daemon-side right is made with `right.create` on first use, and made again after the
/// connection was lost (the daemon forgets a client's rights when it disconnects, so the right is
/// then `notAuthorized`, and `unknown` once re-made). `state` follows the daemon: every
/// `right.stateChanged` notification for this right's handle updates it, so a biometryCurrentSet
/// right invalidated by an enrollment change reads `notAuthorized` without asking. Deinitialising
/// the right sends `right.release` (the daemon holds at most 1024 rights per connection).
/// Thread-safe. `@unchecked Sendable`: all mutable state is behind a Mutex; an open class cannot
/// prove that for its subclasses.
open class LARight: @unchecked Sendable {
  /// The authorization state (LARight.State).
  public enum State: Int, Sendable, CaseIterable {
    /// Not known yet.
    case unknown = 0
    /// An authorization is in progress.
    case authorizing = 1
    /// Authorized until deauthorized or the client disconnects.
    case authorized = 2
    /// Not authorized.
    case notAuthorized = 3

    /// The name the daemon sends ("notAuthorized").
    public var name: String {
      switch self {
      case .unknown: "unknown"
      case .authorizing: "authorizing"
      case .authorized: "authorized"
      case .notAuthorized: "notAuthorized"
      }
    }

    /// The state from the daemon's name; nil for a name this version does not know.
    public init?(name: String) {
      guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
      self = state
    }
  }

  /// The requirement given at creation (for a right loaded from the store: `.default`, as the store does not say).
  public let requirement: LAAuthenticationRequirement
  /// The connection the right's calls go over.
  public let connection: LocalAuthConnection
  /// A tag the app may use to tell rights apart.
  public var tag: Int {
    get { mutable.withLock { $0.tag } }
    set { mutable.withLock { $0.tag = newValue } }
  }

  struct Mutable {
    var handle: JSONValue?
    var handleGeneration: Int?
    var state: State = .unknown
    /// Counts the `right.stateChanged` notifications applied; a call's own guess at the state is
    /// applied only when none arrived while it ran (the daemon's word is fresher).
    var stateVersion = 0
    var tag = 0
  }

  let mutable: Mutex<Mutable>

  /// A right with the given requirement on a connection.
  public init(
    requirement: LAAuthenticationRequirement = .default, connection: LocalAuthConnection = .shared
  ) {
    self.requirement = requirement
    self.connection = connection
    mutable = Mutex(Mutable())
  }

  /// A right whose daemon handle already exists (persisted rights), in the state the daemon gave it.
  init(
    handle: JSONValue, requirement: LAAuthenticationRequirement, state: State,
    connection: LocalAuthConnection
  ) {
    self.requirement = requirement
    self.connection = connection
    let generation = connection.currentGeneration
    mutable = Mutex(Mutable(handle: handle, handleGeneration: generation, state: state))
    if let generation { connection.register(self, handle: handle, generation: generation) }
  }

  deinit {
    let (handle, generation) = mutable.withLock { ($0.handle, $0.handleGeneration) }
    guard let handle, let generation else { return }
    connection.unregisterRight(handle: handle)
    guard generation == connection.currentGeneration else { return }
    connection.release(handle)
  }

  /// The last known state, kept current by the daemon's `right.stateChanged` notifications;
  /// `refreshState()` asks the daemon.
  public var state: State { mutable.withLock { $0.state } }

  /// The daemon's handle for the current socket: made with `right.create` (or, for a persisted
  /// right, `rightStore.right`) when first needed and again after a reconnect.
  func handle() async throws -> JSONValue {
    try connection.connect()
    let generation = connection.currentGeneration
    if let handle = mutable.withLock({ $0.handleGeneration == generation ? $0.handle : nil }) {
      return handle
    }
    let handle = try await makeHandle()
    guard let generation = connection.currentGeneration else {
      throw LocalAuthConnection.connectionLost
    }
    let (kept, previous) = mutable.withLock { mutable -> (JSONValue, JSONValue?) in
      if mutable.handleGeneration == generation, let kept = mutable.handle { return (kept, nil) }
      let previous = mutable.handle
      (mutable.handle, mutable.handleGeneration) = (handle, generation)
      mutable.state = .unknown
      mutable.stateVersion += 1
      return (handle, previous)
    }
    if let previous { connection.unregisterRight(handle: previous) }
    if kept == handle {
      connection.register(self, handle: handle, generation: generation)
    } else {
      // Another task made a handle first: give this one back.
      connection.release(handle)
    }
    return kept
  }

  /// Makes a new daemon-side handle for this right (`right.create`).
  func makeHandle() async throws -> JSONValue {
    let result = try await connection.call(RightCreateRequest.self, requirement.params)
    return .string(result.right)
  }

  /// Calls a method that takes only the right (`{right}`).
  func callWithRight<R: RequestType>(_ request: R.Type) async throws -> R.Result
  where R.Params == RightHandleParams {
    let params = RightHandleParams(right: try await handle())
    return try await connection.call(R.self, params)
  }

  /// The current state version, optionally setting a provisional state.
  func beginStateChange(_ provisional: State? = nil) -> (version: Int, previous: State) {
    mutable.withLock { mutable in
      let previous = mutable.state
      if let provisional { mutable.state = provisional }
      return (mutable.stateVersion, previous)
    }
  }

  /// Sets the state a call implies, unless a notification from the daemon arrived since `version`.
  func settleState(_ state: State, since version: Int) {
    mutable.withLock { mutable in
      if mutable.stateVersion == version { mutable.state = state }
    }
  }

  /// Applies a `right.stateChanged` notification (reader thread).
  func receiveState(_ state: State) {
    mutable.withLock { mutable in
      mutable.state = state
      mutable.stateVersion += 1
    }
  }

  /// Authorizes the right, prompting with `localizedReason` (`right.authorize`). Cancelling the
  /// awaiting task cancels the prompt (appCancel). An authorized right answers at once.
  ///
  /// - Parameter localizedReason: Shown in the prompt; must not be empty.
  /// - Throws: `LAError` (userCancel, appCancel, authenticationFailed, …); `RPCError`
  ///   alreadyInProgress while another authorization of this right runs.
  ///
  /// ```swift
  /// let right = LARight()
  /// try await right.authorize(localizedReason: "Access your account")
  /// ```
  public func authorize(localizedReason: String) async throws {
    let params = RightAuthorizeRequest.Params(
      right: try await handle(), localizedReason: localizedReason)
    let (version, previous) = beginStateChange(.authorizing)
    do {
      _ = try await connection.callEvaluating(RightAuthorizeRequest.method, params.object)
    } catch {
      // The daemon notifies every real change; with no notification the state stayed as it was
      // (alreadyInProgress, invalid params, …).
      settleState(previous, since: version)
      throw error
    }
    settleState(.authorized, since: version)
    await didAuthorize()
  }

  /// Called after a successful authorization; persisted rights fetch their public key here.
  func didAuthorize() async {}

  /// Checks, without prompting, whether the right could be authorized (`right.checkCanAuthorize`).
  public func checkCanAuthorize() async throws {
    _ = try await callWithRight(RightCheckCanAuthorizeRequest.self)
  }

  /// Gives up the authorization (`right.deauthorize`). Never throws, as Apple's: when the daemon
  /// cannot be reached the authorization is gone anyway (the daemon forgets a lost client's rights).
  public func deauthorize() async {
    let (version, _) = beginStateChange()
    _ = try? await callWithRight(RightDeauthorizeRequest.self)
    settleState(.notAuthorized, since: version)
  }

  /// Asks the daemon for the current state (`right.state`).
  @discardableResult
  public func refreshState() async throws -> State {
    let (version, _) = beginStateChange()
    let result = try await callWithRight(RightStateRequest.self)
    let state = State(name: result.state) ?? .unknown
    settleState(state, since: version)
    return state
  }
}

extension LocalAuthConnection {
  /// Gives a right's handle back (`right.release`), answered or not.
  func release(_ handle: JSONValue) {
    start(RightReleaseRequest.method, RightHandleParams(right: handle).object) { _ in }
  }
}
