import CLocalAuthSystem
import Dispatch
import FoundationEssentials
import LocalAuthCrypto
import LocalAuthProtocol
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One connected socket to the daemon: a dedicated reader thread that decodes lines,
/// and a serial write queue so requests from any thread go out whole and in order.
/// Blocking reads and writes never run on Swift's cooperative pool.
final class SocketLink: Sendable {
  /// The connected socket; closed by the write queue once the reader has finished.
  let fd: Int32
  /// Which connection attempt this is; calls remember the generation they were sent on.
  let generation: Int
  private let writes: DispatchQueue
  /// Whether the fd has been closed; read and written only on `writes`, guarded by this Mutex too.
  private let closed = Mutex(false)

  /// Wraps a connected socket.
  init(fd: Int32, generation: Int) {
    self.fd = fd
    self.generation = generation
    writes = DispatchQueue(label: "localauthd.client.write.\(generation)")
  }

  /// Connects to a Unix socket path (connect(2) via `las_connect_unix`). The app's signal
  /// dispositions stay its own: every send uses MSG_NOSIGNAL, so a closed peer is EPIPE, not SIGPIPE.
  static func connect(path: String, generation: Int) -> Result<SocketLink, ConnectionError> {
    let fd = las_connect_unix(path)
    guard fd >= 0 else { return .failure(ConnectionError(socketPath: path, errno: fd)) }
    return .success(SocketLink(fd: fd, generation: generation))
  }

  /// Starts the reader thread; `onMessage` gets each decoded message, `onClose` runs once at end of stream.
  func start(
    onMessage: @escaping @Sendable (ServerMessage) -> Void, onClose: @escaping @Sendable () -> Void
  ) {
    let fd = self.fd
    ReaderThread.start { [self] in
      var framer = LineFramer(limit: 16 * 1024 * 1024)
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        buffer.withUnsafeBytes { bytes in
          framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { frame in
            guard case .line(let line) = frame, let json = try? JSONParser.parse(line),
              let message = ServerMessage(json: json)
            else { return }
            onMessage(message)
          }
        }
      }
      onClose()
      closeDescriptor()
    }
  }

  /// Queues one request line for sending (send(2) with MSG_NOSIGNAL).
  func send(_ request: RPCRequest) {
    // An agent's answer may carry a passcode or login password: its line is written into room
    // made for it at once (never moved to a grown buffer) and zeroed once sent.
    let secret = request.method == AgentRespondRequest.method
    var writer = JSONWriter(capacity: secret ? 4096 : 256)
    writer.write(request.json)
    writer.bytes.append(0x0A)
    let line = OutgoingLine(writer.bytes, secret: secret)
    // The line holds the only reference to the bytes from here on: were the writer's still there
    // when the queue wipes the line, the wipe would zero a copy made for it (copy on write) and
    // leave the bytes sent where they were.
    writer.bytes = []
    // The writer's scan for characters to escape reads a short secret eight bytes at a time, and
    // those words stay in the frames it left below this one: zeroed too.
    if secret { StackScrub.scrub() }
    writes.async { [self] in
      defer { line.wipeIfSecret() }
      guard !closed.withLock({ $0 }) else { return }
      var offset = 0
      while offset < line.bytes.count {
        let sent = line.bytes.withUnsafeBytes { raw in
          Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        }
        if sent < 0, errno == EINTR { continue }
        guard sent > 0 else {
          // The reader sees the broken socket and fails the calls in flight.
          Glibc.shutdown(fd, Int32(SHUT_RDWR))
          return
        }
        offset += sent
      }
    }
  }

  /// Ends the connection: the reader thread wakes up at end of stream and cleans up (shutdown(2)).
  func shutdown() {
    writes.async { [self] in
      guard !closed.withLock({ $0 }) else { return }
      Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
  }

  private func closeDescriptor() {
    writes.async { [self] in
      let wasClosed = closed.withLock { value in
        defer { value = true }
        return value
      }
      if !wasClosed { Glibc.close(fd) }
    }
  }
}

/// One request line on its way to the daemon's socket. `@unchecked Sendable`: made on the caller's
/// thread and then touched only by the link's write queue.
private final class OutgoingLine: @unchecked Sendable {
  var bytes: [UInt8]
  let secret: Bool

  init(_ bytes: [UInt8], secret: Bool) {
    self.bytes = bytes
    self.secret = secret
  }

  /// Zeroes a line that may carry a secret (explicit_bzero(3)).
  func wipeIfSecret() {
    guard secret else { return }
    bytes.withUnsafeMutableBytes { raw in
      if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
    }
  }
}
