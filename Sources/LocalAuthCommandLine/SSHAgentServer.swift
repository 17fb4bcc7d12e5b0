import CLocalAuthSystem
import Dispatch
import LocalAuthClientCore
import SSHAgent
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `localauthctl ssh-agent`: serves the SSH agent protocol to this user's processes, one thread
/// per connection, with every key and signature in the daemon. Runs until killed.
public final class SSHAgentServer: Sendable {
  /// The most connections served at once; more are closed at once.
  public static let maxConnections = 64

  let options: SSHAgentOptions
  let keys: SSHKeyStore
  let log: @Sendable (String) -> Void
  private let connections = Atomic<Int>(0)

  /// An agent for `options` whose keys are `keys`; `log` takes one line per signature and refusal.
  public init(
    options: SSHAgentOptions, keys: SSHKeyStore, log: @escaping @Sendable (String) -> Void
  ) {
    self.options = options
    self.keys = keys
    self.log = log
  }

  /// Listens and serves forever; throws only when it cannot listen.
  public func run() throws(SSHAgentListenError) -> Never {
    signal(SIGPIPE, SIG_IGN)
    let listener = try SSHAgentListener.open(options)
    // A socket file this agent made is removed when it is told to stop (issue 29, item 9).
    let removal = options.listenPath.map(SSHAgentSocketRemoval.init(path:))
    defer { removal?.cancel() }
    log("localauthctl ssh-agent: serving \(options.listenPath ?? "the socket systemd passed")")
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        usleep(100_000)  // EMFILE and the like: wait instead of spinning
        continue
      }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      guard isOwnUser(fd) else {
        log("localauthctl ssh-agent: refused a connection from another user")
        close(fd)
        continue
      }
      guard connections.add(1, ordering: .relaxed).newValue <= Self.maxConnections else {
        connections.subtract(1, ordering: .relaxed)
        close(fd)
        continue
      }
      DispatchQueue(label: "localauthctl.ssh-agent.connection").async {
        SSHAgentSession(fd: fd, keys: self.keys, log: self.log).serve()
        close(fd)
        self.connections.subtract(1, ordering: .relaxed)
      }
    }
  }

  /// Whether the peer runs as this user (the socket's mode keeps others out; root is refused too).
  private func isOwnUser(_ fd: Int32) -> Bool {
    var peer = las_peer_credentials()
    return las_peer_credentials_get(fd, &peer) == 0 && peer.uid == getuid()
  }
}
