import CLocalAuthSystem
import Glibc
import LocalAuthBroker
import LocalAuthProtocol

/// One client connection: reads frames, hands requests to the broker, buffers output with a
/// high-water mark. Lives on the loop thread only (it is the broker's channel, and the broker runs there).
final class Connection: LoopHandler, ClientChannel, @unchecked Sendable {
  // Every member is touched only on the loop thread, which is also the broker's executor.
  let fd: Int32
  let server: Server
  /// What this connection shares with the others of its uid (connection count, read budget).
  let share: UIDShare
  var session: ClientSession!
  var framer: LineFramer
  /// The frame limit (kept apart from the framer, which is busy while frames are handled).
  let frameLimit: Int
  private var output: [UInt8] = []
  private var outputStart = 0
  private var markedDirty = false
  private var watchingOutput = false
  private var readingPaused = false
  /// The client shut down its sending side (socat at the end of its input) but still reads:
  /// the connection stays until every pending request is answered.
  private var readClosed = false
  var closed = false
  /// JSON-RPC ids of requests still waiting for their answer (duplicate-id rule).
  var pendingIDs: Set<RequestID> = []

  /// A deferred request was answered: its id may be used again. The set's storage is returned
  /// once it is empty, so an idle connection holds none.
  func answered(_ id: RequestID) {
    pendingIDs.remove(id)
    if pendingIDs.isEmpty { pendingIDs = [] }
  }

  init(fd: Int32, server: Server, frameLimit: Int, share: UIDShare) {
    self.fd = fd
    self.server = server
    self.share = share
    framer = LineFramer(limit: frameLimit)
    self.frameLimit = frameLimit
  }

  var pendingOutput: Int { output.count - outputStart }

  // MARK: Reading

  func handle(events: UInt32) {
    if events & UInt32(LAS_EPOLLOUT) != 0 { flush() }
    if closed { return }
    let hungUp = events & UInt32(LAS_EPOLLHUP | LAS_EPOLLERR) != 0
    if readClosed {
      // Only a full hang-up is left to notice: the client is gone.
      if hungUp { close() }
      return
    }
    if events & UInt32(LAS_EPOLLIN) != 0 || hungUp { readAvailable(hungUp: hungUp) }
  }

  private func readAvailable(hungUp: Bool) {
    // This uid has read its share of the turn: the bytes wait, readable, for the next one.
    guard share.mayRead(turn: server.loop.turn) else { return }
    let buffer = server.readBuffer
    let count = las_recv(fd, buffer.baseAddress, buffer.count)
    if count == -Int(EAGAIN) { return }
    if count > 0 { share.didRead(count) }
    if count < 0 || (count == 0 && hungUp) {
      close()
      return
    }
    if count == 0 {
      readClosed = true
      updateInterest(force: true)
      closeIfFinished()
      return
    }
    framer.feedViews(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) { frame in
      guard !closed else { return }
      server.dispatcher.handle(frame, on: self)
    }
    // Too many requests awaiting answers: read no more until some are answered.
    if !closed && tooManyPending { updateInterest() }
    // Answers go out when the loop flushes dirty connections at the end of this turn.
  }

  // MARK: Writing

  /// Appends bytes to the output; flushed at the end of the loop's turn.
  func write(_ bytes: [UInt8]) {
    guard !closed else { return }
    borrowOutputBuffer()
    output.append(contentsOf: bytes)
    outputGrew()
  }

  /// Encodes a response line straight into the output buffer (no intermediate array).
  func writeResponse(_ answer: Result<JSONValue, RPCError>, id: RequestID) {
    guard !closed else { return }
    borrowOutputBuffer()
    var writer = JSONWriter(appendingTo: [])
    swap(&writer.bytes, &output)
    RPCEncoder.write(answer: answer, id: id, into: &writer)
    writer.bytes.append(0x0A)
    swap(&writer.bytes, &output)
    outputGrew()
  }

  private func outputGrew() {
    if pendingOutput > server.limits.outputHardLimit {
      server.log.clientDropped(
        pid: session?.peer.pid ?? 0, uid: session?.peer.uid ?? 0, name: session?.name ?? "?",
        requestID: nil,
        reason:
          "\(pendingOutput) bytes of responses unread (limit \(server.limits.outputHardLimit))")
      close()
      return
    }
    if !markedDirty {
      markedDirty = true
      server.loop.markDirty(self)
    }
  }

  /// Takes a spare output buffer from the server when this connection has none, so writing an
  /// answer allocates nothing in the steady state and an idle connection holds no buffer.
  private func borrowOutputBuffer() {
    if output.capacity == 0, let spare = server.spareOutputBuffers.popLast() { output = spare }
  }

  /// Everything was sent: the buffer goes back to the server's spares (or is freed when it grew
  /// large or there are enough spares).
  private func returnOutputBuffer() {
    outputStart = 0
    guard output.capacity > 0 else { return }
    output.removeAll(keepingCapacity: true)
    var buffer: [UInt8] = []
    swap(&buffer, &output)
    if buffer.capacity <= Server.spareOutputBufferCapacity
      && server.spareOutputBuffers.count < Server.spareOutputBufferCount
    {
      server.spareOutputBuffers.append(buffer)
    }
  }

  /// Sends what the socket takes now; watches for writability if some is left.
  func flush() {
    markedDirty = false
    guard !closed else { return }
    while outputStart < output.count {
      let sent = output.withUnsafeBytes { raw in
        las_send(fd, raw.baseAddress! + outputStart, output.count - outputStart)
      }
      if sent > 0 {
        outputStart += sent
        continue
      }
      if sent == -Int(EAGAIN) || sent == -Int(EWOULDBLOCK) { break }
      close()
      return
    }
    if outputStart == output.count {
      returnOutputBuffer()
    } else if outputStart > 64 * 1024 {
      output.removeFirst(outputStart)
      outputStart = 0
    }
    updateInterest()
    closeIfFinished()
  }

  /// Whether the connection has as many requests awaiting answers as it may (MaxPendingPerConnection).
  private var tooManyPending: Bool { pendingIDs.count >= server.limits.maxPendingPerConnection }

  private func updateInterest(force: Bool = false) {
    let wantOutput = pendingOutput > 0
    let pause = pendingOutput > server.limits.outputHighWater || tooManyPending
    guard force || wantOutput != watchingOutput || pause != readingPaused else { return }
    watchingOutput = wantOutput
    readingPaused = pause
    var events: UInt32 = pause || readClosed ? 0 : UInt32(LAS_EPOLLIN)
    if wantOutput { events |= UInt32(LAS_EPOLLOUT) }
    server.loop.modify(fd, events: events)
  }

  /// After a half-close: closes once nothing is owed to the client any more.
  private func closeIfFinished() {
    guard readClosed, !closed, pendingIDs.isEmpty, pendingOutput == 0 else { return }
    close()
  }

  // MARK: ClientChannel

  func notify(_ method: String, _ params: JSONObject) {
    write(RPCEncoder.notification(method, params))
  }

  // MARK: Closing

  /// Closes the socket and tells the broker the client is gone.
  func close() {
    guard !closed else { return }
    closed = true
    server.loop.unregister(fd)
    _ = Glibc.close(fd)
    output = []
    server.connectionClosed(self)
  }
}
