import Sensors

// A session's broker-isolated members, by their names, each an access to `onLoop` (on the broker's
// executor only; traps elsewhere in debug builds).
extension ClientSession {
  /// The name the client declared in session.hello (or its process name).
  public internal(set) var name: String {
    get { onLoop.value.name }
    set { onLoop.value.name = newValue }
  }
  /// The app id the rights store scopes rows to.
  public internal(set) var appID: String {
    get { onLoop.value.appID }
    set { onLoop.value.appID = newValue }
  }
  var interactive: Bool {
    get { onLoop.value.interactive }
    set { onLoop.value.interactive = newValue }
  }
  var active: Bool {
    get { onLoop.value.active }
    set { onLoop.value.active = newValue }
  }
  var monitoring: Bool {
    get { onLoop.value.monitoring }
    set { onLoop.value.monitoring = newValue }
  }
  var contexts: [String: AuthContext] {
    _read { yield onLoop.value.contexts }
    _modify { yield &onLoop.value.contexts }
  }
  /// Ids of invalidated contexts (their objects are freed), newest last, so later use still gets
  /// invalidContext; bounded by `rememberedInvalidations`.
  var invalidatedContexts: Set<String> {
    _read { yield onLoop.value.invalidatedContexts }
    _modify { yield &onLoop.value.invalidatedContexts }
  }
  var invalidationOrder: [String] {
    _read { yield onLoop.value.invalidationOrder }
    _modify { yield &onLoop.value.invalidationOrder }
  }
  /// The account behind the connection, once looked up (`Broker.account(of:)`).
  var account: SensorOwner? {
    get { onLoop.value.account }
    set { onLoop.value.account = newValue }
  }
  /// The prompt agent this connection registered, if any.
  var agent: PromptAgent? {
    get { onLoop.value.agent }
    set { onLoop.value.agent = newValue }
  }
  var queuedCount: Int {
    get { onLoop.value.queuedCount }
    set { onLoop.value.queuedCount = newValue }
  }
  var evaluations: [String: Evaluation] {
    _read { yield onLoop.value.evaluations }
    _modify { yield &onLoop.value.evaluations }
  }
  var connected: Bool {
    get { onLoop.value.connected }
    set { onLoop.value.connected = newValue }
  }
}

extension ClientSession {
  /// The last system evaluation on this connection that succeeded by presence.
  var presence: PresenceProof? {
    get { onLoop.value.presence }
    set { onLoop.value.presence = newValue }
  }
}
