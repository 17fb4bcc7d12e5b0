import CLocalAuthSystem
import Glibc
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthProtocol

/// One client connection: reads frames, hands requests to the broker, buffers output with a
/// high-water mark. Lives on the loop thread only (it is the broker's channel, and the broker runs there).
///
/// An idle connection holds only this object and its slot in the loop's table (make bench's idle
/// row, target 150 B): the broker's `ClientSession` is made at the first request, and what a
/// connection needs only while it is behind (a partial line, requests awaiting answers) is held
/// out of line in a `ConnectionBacklog`. The stored properties are ordered so that the small ones
/// share words.
///
/// Loop-only, checked: every mutable member (and `share`) is reached through an accessor that
/// traps, in debug builds, off the loop thread (`checkOnLoop`). They are stored inline rather than
/// in a `LoopBound`, whose separate allocation would add ~48 B to each idle connection (target
/// 150 B). `@unchecked Sendable`: with no lock, the loop check stands for one.
final class Connection: LoopHandler, ClientChannel, @unchecked Sendable {
  let fd: Int32
  /// The peer's process id and primary group at accept (SO_PEERCRED; its uid is the share's).
  let peerPID: Int32
  let peerGID: UInt32
  // The hot path's mutable state is exempt from Swift's run-time exclusivity check (~80
  // instructions an access, ~14 accesses a request; docs/performance.md): each access is a short
  // read or write on the loop thread, none is held across a call that could reach this connection
  // again (output is moved out with `swap` before an answer is encoded into it).
  @exclusivity(unchecked) private var flagsOnLoop: Flags = []
  @exclusivity(unchecked) private var outputStartOnLoop = 0
  let server: Server
  private let shareOnLoop: UIDShare
  @exclusivity(unchecked) private var sessionOnLoop: ClientSession?
  @exclusivity(unchecked) private var backlogOnLoop: ConnectionBacklog?
  @exclusivity(unchecked) private var outputOnLoop: [UInt8] = []
  /// The peer's supplementary groups (SO_PEERGROUPS), and what else was read at accept.
  let peerGroups: [UInt32]
  let peerFacts: PeerProcessFacts?
  /// The process name read at accept (/proc/PID/comm, escaped): the session's name until hello.
  let name: String

  private struct Flags: OptionSet {
    let rawValue: UInt8
    static let markedDirty = Flags(rawValue: 1)
    static let watchingOutput = Flags(rawValue: 2)
    static let readingPaused = Flags(rawValue: 4)
    /// The client shut down its sending side (socat at the end of its input) but still reads:
    /// the connection stays until every pending request is answered.
    static let readClosed = Flags(rawValue: 8)
    static let closed = Flags(rawValue: 16)
    /// The output held a secret (a released login password): zeroed before it is reused or freed.
    static let heldSecret = Flags(rawValue: 32)

    mutating func set(_ member: Flags, _ on: Bool) {
      if on { insert(member) } else { remove(member) }
    }
  }

  init(
    fd: Int32, server: Server, share: UIDShare, peer: PeerIdentity, name: String
  ) {
    self.fd = fd
    peerPID = peer.pid
    peerGID = peer.gid
    self.server = server
    shareOnLoop = share
    peerGroups = peer.groups
    peerFacts = peer.procFacts
    self.name = name
  }

  /// Traps, in debug builds, off the loop thread: every loop-only member's accessor calls it.
  @inline(__always)
  private func checkOnLoop() {
    #if DEBUG
      server.loop.assertOnLoop()
    #endif
  }

  private var flags: Flags {
    _read {
      checkOnLoop()
      yield flagsOnLoop
    }
    _modify {
      checkOnLoop()
      yield &flagsOnLoop
    }
  }
  private var outputStart: Int {
    get {
      checkOnLoop()
      return outputStartOnLoop
    }
    set {
      checkOnLoop()
      outputStartOnLoop = newValue
    }
  }
  private var output: [UInt8] {
    _read {
      checkOnLoop()
      yield outputOnLoop
    }
    _modify {
      checkOnLoop()
      yield &outputOnLoop
    }
  }
  /// What this connection shares with the others of its uid (the uid, connection count, read budget).
  var share: UIDShare {
    checkOnLoop()
    return shareOnLoop
  }
  /// The broker's session, made at the client's first request.
  private(set) var session: ClientSession? {
    get {
      checkOnLoop()
      return sessionOnLoop
    }
    set {
      checkOnLoop()
      sessionOnLoop = newValue
    }
  }
  /// A partial line and the requests awaiting answers; nil while there are none.
  private var backlog: ConnectionBacklog? {
    get {
      checkOnLoop()
      return backlogOnLoop
    }
    set {
      checkOnLoop()
      backlogOnLoop = newValue
    }
  }

  /// Whether the connection is closed.
  var closed: Bool { flags.contains(.closed) }

  /// The broker's session for this client, made (and counted as a client that spoke) at its first
  /// request.
  @inline(__always)
  func session(in broker: isolated Broker) -> ClientSession {
    if let session { return session }
    return firstSession(in: broker)
  }

  /// Makes the session at the client's first request.
  private func firstSession(in broker: isolated Broker) -> ClientSession {
    let peer = PeerIdentity(
      pid: peerPID, uid: share.uid, gid: peerGID, groups: peerGroups, procFacts: peerFacts)
    let made = broker.connect(peer: peer, name: name, channel: self, wasQuiet: true)
    session = made
    return made
  }

  /// Whether a request with this id is still awaiting its answer (duplicate-id rule). Hashes
  /// nothing while no request waits.
  func isAwaiting(_ id: RequestID) -> Bool {
    guard let backlog, !backlog.pendingIDs.isEmpty else { return false }
    return backlog.pendingIDs.contains(id)
  }

  /// A request's answer comes later: its id is in flight until `answered(_:)`.
  func awaits(_ id: RequestID) {
    backlogForUse().pendingIDs.insert(id)
  }

  /// A deferred request was answered: its id may be used again. The backlog is released once it
  /// holds nothing, so an idle connection holds none.
  func answered(_ id: RequestID) {
    backlog?.pendingIDs.remove(id)
    releaseBacklogIfEmpty()
  }

  private var pendingCount: Int { backlog?.pendingIDs.count ?? 0 }

  private func backlogForUse() -> ConnectionBacklog {
    if let backlog { return backlog }
    let made = ConnectionBacklog()
    backlog = made
    return made
  }

  private func releaseBacklogIfEmpty() {
    if let backlog, backlog.pendingIDs.isEmpty, backlog.framer == nil { self.backlog = nil }
  }

  var pendingOutput: Int { output.count - outputStart }

  // MARK: Reading

  func handle(events: UInt32) {
    if events & UInt32(LAS_EPOLLOUT) != 0 { flush() }
    if closed { return }
    let hungUp = events & UInt32(LAS_EPOLLHUP | LAS_EPOLLERR) != 0
    if flags.contains(.readClosed) {
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
      flags.insert(.readClosed)
      updateInterest(force: true)
      closeIfFinished()
      return
    }
    // The framer of a connection with no partial line is a fresh value (no allocation); one
    // holding a partial line is kept in the backlog until the line is complete.
    var framer: LineFramer
    if let kept = backlog?.framer {
      framer = kept
      backlog?.framer = nil
    } else {
      framer = LineFramer(limit: server.limits.frameLimit)
    }
    framer.feedViews(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) { frame in
      guard !closed else { return }
      server.dispatcher.handle(frame, on: self)
    }
    if !framer.pending.isEmpty || framer.skipping {
      if !closed { backlogForUse().framer = framer }
    } else {
      releaseBacklogIfEmpty()
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
  func writeResponse(_ answer: BrokerAnswer, id: RequestID) {
    guard !closed else { return }
    borrowOutputBuffer()
    var writer = JSONWriter(appendingTo: [])
    swap(&writer.bytes, &output)
    RPCEncoder.write(answer: answer, id: id, into: &writer)
    writer.bytes.append(0x0A)
    swap(&writer.bytes, &output)
    outputGrew()
  }

  /// Appends a success response line for a number id and a result whose encoding is kept (the
  /// hot answers: `CanEvaluateResult.keptEncoding`), in one append.
  func writeResponse(keptResult: [UInt8], id: JSONNumber) {
    guard !closed else { return }
    borrowOutputBuffer()
    var writer = JSONWriter(appendingTo: [])
    swap(&writer.bytes, &output)
    writer.appendResponse(id: id, keptResult: keptResult, asLine: true)
    swap(&writer.bytes, &output)
    outputGrew()
  }

  /// Marks the output as holding a secret: it is zeroed before it is reused or freed.
  func outputHoldsSecret() { flags.insert(.heldSecret) }

  private func outputGrew() {
    if pendingOutput > server.limits.outputHardLimit {
      server.log.clientDropped(
        pid: peerPID, uid: share.uid, name: session?.name ?? name,
        requestID: nil,
        reason:
          "\(pendingOutput) bytes of responses unread (limit \(server.limits.outputHardLimit))")
      close()
      return
    }
    if !flags.contains(.markedDirty) {
      flags.insert(.markedDirty)
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
    if flags.contains(.heldSecret) {
      flags.remove(.heldSecret)
      output.withUnsafeMutableBytes { raw in
        if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
      }
    }
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
    flags.remove(.markedDirty)
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
  private var tooManyPending: Bool { pendingCount >= server.limits.maxPendingPerConnection }

  private func updateInterest(force: Bool = false) {
    let wantOutput = pendingOutput > 0
    let pause = pendingOutput > server.limits.outputHighWater || tooManyPending
    guard
      force || wantOutput != flags.contains(.watchingOutput)
        || pause != flags.contains(.readingPaused)
    else { return }
    flags.set(.watchingOutput, wantOutput)
    flags.set(.readingPaused, pause)
    var events: UInt32 = pause || flags.contains(.readClosed) ? 0 : UInt32(LAS_EPOLLIN)
    if wantOutput { events |= UInt32(LAS_EPOLLOUT) }
    server.loop.modify(fd, events: events)
  }

  /// After a half-close: closes once nothing is owed to the client any more.
  private func closeIfFinished() {
    guard flags.contains(.readClosed), !closed, pendingCount == 0, pendingOutput == 0 else {
      return
    }
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
    flags.insert(.closed)
    server.loop.unregister(fd)
    _ = Glibc.close(fd)
    output = []
    backlog = nil
    server.connectionClosed(self)
  }

  /// Breaks the session's hold on this connection (its channel) so both are freed.
  func dropSession() { session = nil }
}
