import CLocalAuthSystem
import Glibc
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthProtocol
import Sensors
import SystemFacts

/// Limits on what one client may cost the daemon.
public struct ConnectionLimits: Sendable, Equatable {
  /// The longest frame, in bytes (docs/protocol.md, "Limits": 64 KiB).
  public var frameLimit = 64 * 1024
  /// Past this much unread output the daemon stops reading the client's requests.
  public var outputHighWater = 1 << 20
  /// Past this much unread output the client is dropped and its evaluations cancelled.
  public var outputHardLimit = 16 << 20
  /// Requests one connection may have awaiting their answers before the daemon stops reading it.
  public var maxPendingPerConnection = 256
  /// Connections one uid may hold at once (root is not bounded by it).
  public var maxConnectionsPerUID = 64

  /// The defaults.
  public init() {}
}

/// The socket side of the daemon: listeners and connections on one event loop, each connection
/// a client of the broker. Loop thread only, apart from `init`: that state is `LoopBound` to the
/// loop (checked in debug builds).
public final class Server: Sendable {
  let loop: EventLoop
  let broker: Broker
  let log: any EvaluationLog
  let dispatcher: RequestDispatcher
  /// Looks accounts up off the loop before a connection or a request needs them (nil: the broker's
  /// directory answers by itself, as in tests).
  let resolver: AccountResolver?
  private let state: LoopBound<ServerState>
  /// The most bytes the connections of one uid read in one loop turn: a uid flooding from many
  /// connections delays the others' next turn by at most this much work.
  static let readBytesPerUIDPerTurn = 64 * 1024
  /// At most this many spare output buffers are kept (one per connection served in a turn is enough
  /// for the 256-client load; more are freed).
  static let spareOutputBufferCount = 512
  /// A buffer that grew past this many bytes is freed rather than kept as a spare (the spares hold
  /// at most 512 × 4 KiB).
  static let spareOutputBufferCapacity = 4 * 1024

  /// What only the loop thread touches.
  private struct ServerState {
    var limits: ConnectionLimits
    /// One read of at most this much per connection per loop turn: a turn serves every ready
    /// connection, so a smaller read bounds how long a flooding client delays the others
    /// (make bench's hostile row: p99 23 ms with 64 KiB, 12.6 ms with 16 KiB).
    let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16 * 1024)
    var listeners: [Listener] = []
    /// Open connections (the loop's table holds them, by descriptor).
    var connectionCount = 0
    /// Per uid with open connections: their count (MaxConnectionsPerUID), their read share of the
    /// loop turn and their groups.
    var uidShares: [UInt32: UIDShare] = [:]
    /// Output buffers not in use: a connection borrows one when it has answers to send and returns
    /// it once they are sent, so idle connections hold no buffer and busy ones allocate none.
    var spareOutputBuffers: [[UInt8]] = []
    /// The params storage of the last answered request, emptied, for the next request's params
    /// (`RequestDispatcher`).
    var spareMembers: [JSONMember] = []
    /// Called when the last client disconnects or the first connects (idle-exit bookkeeping).
    var onClientCountChange: ((Int) -> Void)?
  }

  /// The limits on each client (changed by a reload).
  var limits: ConnectionLimits {
    get { state.value.limits }
    set { state.value.limits = newValue }
  }
  /// Where a connection reads into (one buffer: the loop reads one connection at a time).
  var readBuffer: UnsafeMutableBufferPointer<UInt8> { state.value.readBuffer }
  /// Output buffers not in use (see `ServerState`).
  var spareOutputBuffers: [[UInt8]] {
    _read { yield state.value.spareOutputBuffers }
    _modify { yield &state.value.spareOutputBuffers }
  }
  /// Params storage for the next request (see `ServerState`).
  var spareMembers: [JSONMember] {
    _read { yield state.value.spareMembers }
    _modify { yield &state.value.spareMembers }
  }
  /// Called when the last client disconnects or the first connects (idle-exit bookkeeping).
  var onClientCountChange: ((Int) -> Void)? {
    get { state.value.onClientCountChange }
    set { state.value.onClientCountChange = newValue }
  }

  /// A server on a loop, serving a broker. With `accounts` (the cache the broker reads through
  /// `cacheOnly`) each connection's account and each account a request names is looked up off the
  /// loop before the broker sees it.
  public init(
    loop: EventLoop, broker: Broker, limits: ConnectionLimits, log: any EvaluationLog,
    accounts: SystemAccounts? = nil
  ) throws(SystemError) {
    self.loop = loop
    self.broker = broker
    self.log = log
    if let accounts {
      resolver = try AccountResolver(accounts: accounts, loop: loop)
    } else {
      resolver = nil
    }
    dispatcher = RequestDispatcher(broker: broker)
    state = LoopBound(ServerState(limits: limits), loop: loop)
  }

  /// Serves an already listening socket (bound here or passed by systemd).
  public func serve(listeningSocket fd: Int32) {
    _ = las_set_nonblocking(fd, 1)
    let listener = Listener(fd: fd, server: self)
    state.value.listeners.append(listener)
    loop.register(fd, events: UInt32(LAS_EPOLLIN), handler: listener)
  }

  /// How many clients are connected.
  public var clientCount: Int { state.value.connectionCount }

  func accepted(_ fd: Int32) {
    var credentials = las_peer_credentials()
    guard las_peer_credentials_get(fd, &credentials) == 0 else {
      _ = Glibc.close(fd)
      return
    }
    var groups = [UInt32](repeating: 0, count: 64)
    let groupCount = las_peer_groups(fd, &groups, 64)
    if credentials.uid != 0,
      (state.value.uidShares[credentials.uid]?.connections ?? 0) >= limits.maxConnectionsPerUID
    {
      refuse(
        fd,
        .limit(
          "MaxConnectionsPerUID", limits.maxConnectionsPerUID, "too many connections for this user")
      )
      return
    }
    let bindsAppIDs = broker.assumeIsolated { broker in
      broker.quietConnectionAccepted()
      return broker.bindsAppIDs
    }
    let share =
      state.value.uidShares[credentials.uid]
      ?? UIDShare(uid: credentials.uid, bytesPerTurn: Self.readBytesPerUIDPerTurn)
    state.value.uidShares[credentials.uid] = share
    share.connections += 1
    let peer = PeerIdentity(
      pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
      groups: share.shared(groupCount > 0 ? Array(groups[0..<Int(groupCount)]) : []),
      executable: bindsAppIDs ? ProcessFacts.executable(of: credentials.pid) : nil,
      loginSession: ProcessFacts.loginSession(of: credentials.pid))
    let connection = Connection(
      fd: fd, server: self, share: share, peer: peer, name: processName(of: peer.pid))
    state.value.connectionCount += 1
    onClientCountChange?(state.value.connectionCount)
    admit(connection)
  }

  /// Starts reading the connection, once its account is in the cache: a connection whose account
  /// must be looked up reads nothing until it is (the loop serves the others meanwhile).
  private func admit(_ connection: Connection) {
    let uid = AccountReference.uid(connection.share.uid)
    guard let resolver, !resolver.accounts.holdsFreshly(uid) else {
      return loop.register(connection: connection)
    }
    let refused = resolver.whenResolved(uid, for: connection.share.uid) { [self] in
      if !connection.closed { loop.register(connection: connection) }
    }
    if let refused {
      connection.write(RPCEncoder.error(id: .null, refused))
      connection.flush()
      connection.close()
    }
  }

  func connectionClosed(_ connection: Connection) {
    state.value.connectionCount -= 1
    let share = connection.share
    share.connections -= 1
    if share.connections <= 0 { state.value.uidShares[share.uid] = nil }
    broker.assumeIsolated { broker in
      if let session = connection.session {
        broker.disconnect(session)
      } else {
        broker.quietConnectionClosed()
      }
    }
    // The session holds the connection as its channel: break the cycle so both are freed.
    connection.dropSession()
    for listener in state.value.listeners { listener.resumeIfPaused() }
    onClientCountChange?(state.value.connectionCount)
  }

  /// Flushes what can be sent and closes every connection (shutdown).
  public func closeAll() {
    for connection in loop.openConnections {
      connection.flush()
      connection.close()
    }
  }
}

/// Answers a connection the daemon will not serve with one JSON-RPC error line, then closes it.
private func refuse(_ fd: Int32, _ error: RPCError) {
  let line = RPCEncoder.error(id: .null, error)
  _ = line.withUnsafeBytes { las_send(fd, $0.baseAddress, $0.count) }
  _ = Glibc.close(fd)
}

/// The kernel's name of a process (/proc/PID/comm), or "pid-N", with control characters escaped
/// (a process chooses its own name).
func processName(of pid: Int32) -> String {
  ProcessFacts.name(of: pid).map(PrintableText.escaped) ?? "pid-\(pid)"
}

/// A listening socket: accepts clients; pauses while descriptors run out (EMFILE) instead of spinning.
final class Listener: LoopHandler {
  let fd: Int32
  unowned let server: Server
  private var paused = false

  init(fd: Int32, server: Server) {
    self.fd = fd
    self.server = server
  }

  func handle(events: UInt32) {
    for _ in 0..<64 {
      let client = las_accept(fd)
      if client >= 0 {
        server.accepted(client)
        continue
      }
      if client == -EMFILE || client == -ENFILE {
        paused = true
        server.loop.modify(fd, events: 0)
        server.log.notice("out of file descriptors: not accepting until a client leaves")
      }
      return
    }
  }

  func resumeIfPaused() {
    guard paused else { return }
    paused = false
    server.loop.modify(fd, events: UInt32(LAS_EPOLLIN))
  }
}
