import LocalAuthConcurrency
import LocalAuthProtocol
import Sensors

/// Who is on the other end of a connection, as the kernel says (SO_PEERCRED, /proc), never as the
/// client claims: facts the server gathers when it accepts, handed to the broker as values.
public struct PeerIdentity: Sendable, Equatable {
  /// The peer's process id.
  public var pid: Int32
  /// The peer's user id.
  public var uid: UInt32
  /// The peer's primary group id.
  public var gid: UInt32
  /// The peer's supplementary groups (SO_PEERGROUPS).
  public var groups: [UInt32]
  /// The facts read from /proc, in one reference (nil when there are none): an idle connection
  /// holds them until its first request, and every byte counts at 10k connections.
  public private(set) var procFacts: PeerProcessFacts?

  /// The peer's executable as the kernel names it (read by the server at accept), when app ids
  /// are bound to executables; nil otherwise or when it cannot be read.
  public var executable: String? {
    get { procFacts?.executable }
    set { procFacts = PeerProcessFacts.make(executable: newValue, loginSession: loginSession) }
  }
  /// The logind session the peer runs in (read by the server from its cgroup at accept), if any.
  public var loginSession: String? {
    get { procFacts?.loginSession }
    set { procFacts = PeerProcessFacts.make(executable: executable, loginSession: newValue) }
  }

  /// An identity whose /proc facts were read before (kept as they are, not copied).
  public init(
    pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32], procFacts: PeerProcessFacts?
  ) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
    self.groups = groups
    self.procFacts = procFacts
  }

  /// An identity.
  public init(
    pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = [], executable: String? = nil,
    loginSession: String? = nil
  ) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
    self.groups = groups
    self.procFacts = PeerProcessFacts.make(executable: executable, loginSession: loginSession)
  }
}

/// The executable and logind session of a peer, as the server read them at accept (immutable,
/// shared by copies of its identity).
public final class PeerProcessFacts: Sendable, Equatable {
  /// The executable's path, when read.
  public let executable: String?
  /// The logind session id, when the peer is in one.
  public let loginSession: String?

  private init(executable: String?, loginSession: String?) {
    self.executable = executable
    self.loginSession = loginSession
  }

  /// The facts, or nil when there are none.
  public static func make(executable: String?, loginSession: String?) -> PeerProcessFacts? {
    executable == nil && loginSession == nil
      ? nil : PeerProcessFacts(executable: executable, loginSession: loginSession)
  }

  /// Whether both say the same.
  public static func == (lhs: PeerProcessFacts, rhs: PeerProcessFacts) -> Bool {
    lhs.executable == rhs.executable && lhs.loginSession == rhs.loginSession
  }
}

/// Where the broker sends a client's notifications. Called only on the broker's executor.
public protocol ClientChannel: AnyObject, Sendable {
  /// Sends one notification to the client.
  func notify(_ method: String, _ params: JSONObject)
}

/// The one-shot answer to a request whose result comes later. Called only on the broker's executor,
/// at most once (the broker guarantees it).
public protocol Responder: Sendable {
  /// Delivers the response.
  func respond(_ result: BrokerAnswer)
}

/// A method's answer as the broker gives it: the method's typed result, or its error. The server
/// is the one place that encodes it (docs/hacking.md, "Typed answers").
public typealias BrokerAnswer = Result<any MethodResult, RPCError>

/// A responder for JSON-RPC notifications, whose outcomes nobody hears.
public struct DiscardingResponder: Responder {
  /// A responder that drops the answer.
  public init() {}
  /// Drops the answer.
  public func respond(_ result: BrokerAnswer) {}
}

/// One connected client: its identity, declared name, contexts and queued work. Broker-isolated:
/// its mutable state is `LoopBound` to the broker's executor (checked in debug builds).
public final class ClientSession: Sendable {
  /// A number unique to this daemon run.
  public let number: Int
  /// The kernel's word on who this is.
  public let peer: PeerIdentity
  /// Whether the peer may administer sensors.
  public let isAdmin: Bool
  let channel: any ClientChannel
  let onLoop: LoopBound<State>
  static let rememberedInvalidations = 4096

  /// What the broker changes as the client works.
  struct State {
    var name: String
    var appID: String
    var interactive = true
    var active = true
    var monitoring = false
    var contexts: [String: AuthContext] = [:]
    var invalidatedContexts: Set<String> = []
    var invalidationOrder: [String] = []
    var account: SensorOwner?
    var agent: PromptAgent?
    var queuedCount = 0
    var evaluations: [String: Evaluation] = [:]
    var connected = true
    /// The last system evaluation on this connection that succeeded by presence (a password release).
    var presence: PresenceProof?
  }

  /// A session bound to `loop` (the broker's `ExecutorLoop`; a test's `LoopThread`).
  init(
    number: Int, peer: PeerIdentity, isAdmin: Bool, name: String, channel: any ClientChannel,
    loop: any SerialLoop
  ) {
    self.number = number
    self.peer = peer
    self.isAdmin = isAdmin
    self.channel = channel
    onLoop = LoopBound(State(name: name, appID: "uid-\(peer.uid)"), loop: loop)
  }

  /// Forgets an invalidated context's object but remembers its id.
  func forget(invalidated context: AuthContext) {
    contexts[context.id] = nil
    guard invalidatedContexts.insert(context.id).inserted else { return }
    invalidationOrder.append(context.id)
    if invalidationOrder.count > Self.rememberedInvalidations {
      invalidatedContexts.remove(invalidationOrder.removeFirst())
    }
  }
}
