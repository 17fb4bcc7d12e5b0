import CLocalAuthSystem
import Glibc

/// What one closed-loop load run should do.
struct LoadPlan {
  /// The server's socket.
  var path: String
  /// How many connections, each with one request outstanding at a time.
  var clients: Int
  /// The request lines each connection cycles through.
  var requests: [[UInt8]] = [Requests.canEvaluate]
  /// Seconds of load before counting starts.
  var warmupSeconds = 0.3
  /// Seconds counted (when `totalResponses` is nil).
  var seconds = 1.5
  /// Stop after this many responses instead of after a time (a hard time cap still applies).
  var totalResponses: Int?
  /// The hard cap on the whole run, in seconds.
  var timeLimitSeconds = 120.0
  /// Reconnect a connection after this many of its requests (connection churn); nil: never.
  var reconnectEvery: Int?
  /// Whether to keep a latency sample per counted response.
  var recordLatency = false
  /// The server's process, whose CPU time over the counted window is measured (nil: not measured).
  var serverPID: pid_t?
}

/// What a load run measured.
struct LoadResult {
  /// Responses counted (in the window, or all of them in a count-bounded run).
  var responses = 0
  /// Of those, error responses (no `"result":`).
  var errors = 0
  /// Notifications seen (evaluation progress).
  var notifications = 0
  /// Connections the server closed.
  var disconnects = 0
  /// Seconds the counted responses took.
  var seconds = 0.0
  /// Round-trip latencies in nanoseconds, sorted (when asked for).
  var latencies: [UInt32] = []

  /// The server's CPU time over the counted window, in nanoseconds (when a server pid was given).
  var serverCPUNanoseconds: UInt64?

  /// Responses per second.
  var rate: Double { seconds > 0 ? Double(responses) / seconds : 0 }

  /// The server's CPU time per counted response, in microseconds (nil when not measured).
  var serverMicrosecondsPerRequest: Double? {
    guard let serverCPUNanoseconds, responses > 0 else { return nil }
    return Double(serverCPUNanoseconds) / 1000 / Double(responses)
  }
}

/// A closed-loop load generator: one thread, one epoll set, many non-blocking connections, each
/// sending its next request as soon as its previous one is answered. Lines are counted, not parsed.
struct LoadDriver {
  private struct Client {
    var fd: Int32 = -1
    var sentAt: UInt64 = 0
    var sent = 0
    var carry: [UInt8] = []
  }

  let plan: LoadPlan
  private var clients: [Client] = []
  private var slotOfFD = [Int32](repeating: -1, count: 65536)
  private let epollFD: Int32
  private var result = LoadResult()
  private var sentTotal = 0
  private var windowStart: UInt64 = 0
  private var windowEnd: UInt64 = .max
  private var counting = false
  private var live = 0
  private var serverCPUAtWindowStart: UInt64?

  /// A driver for a plan; connects nothing yet.
  init(plan: LoadPlan) throws(BenchError) {
    self.plan = plan
    epollFD = las_epoll_create()
    guard epollFD >= 0 else { throw BenchError("epoll_create1 failed") }
  }

  /// Connects, runs the plan, disconnects, and returns the figures.
  mutating func run() throws(BenchError) -> LoadResult {
    defer { close(epollFD) }
    clients = Array(repeating: Client(), count: plan.clients)
    for slot in 0..<plan.clients { try connect(slot) }
    let start = Clock.nanoseconds()
    let hardEnd = start + UInt64(plan.timeLimitSeconds * 1e9)
    if plan.totalResponses == nil {
      windowStart = start + UInt64(plan.warmupSeconds * 1e9)
      windowEnd = windowStart + UInt64(plan.seconds * 1e9)
    } else {
      windowStart = start
      startCounting()
    }
    if plan.recordLatency { result.latencies.reserveCapacity(1 << 20) }
    for slot in 0..<plan.clients { send(slot) }
    var fds = [Int32](repeating: 0, count: 512)
    var events = [UInt32](repeating: 0, count: 512)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    var now = start
    while live > 0 {
      if let total = plan.totalResponses, result.responses >= total { break }
      if now >= windowEnd || now >= hardEnd { break }
      if !counting && now >= windowStart { startCounting() }
      let count = las_epoll_wait(epollFD, &fds, &events, Int32(fds.count), 50)
      now = Clock.nanoseconds()
      if count <= 0 { continue }
      for index in 0..<Int(count) {
        let slot = Int(slotOfFD[Int(fds[index])])
        if slot >= 0 { receive(slot, buffer: buffer, now: now) }
      }
    }
    let end = min(Clock.nanoseconds(), windowEnd)
    result.seconds = Double(end - windowStart) / 1e9
    if let pid = plan.serverPID, let startCPU = serverCPUAtWindowStart,
      let endCPU = processCPUNanoseconds(pid)
    {
      result.serverCPUNanoseconds = endCPU &- startCPU
    }
    for slot in 0..<clients.count where clients[slot].fd >= 0 { disconnect(slot) }
    result.latencies.sort()
    return result
  }

  private mutating func startCounting() {
    counting = true
    if let pid = plan.serverPID { serverCPUAtWindowStart = processCPUNanoseconds(pid) }
  }

  private mutating func connect(_ slot: Int) throws(BenchError) {
    let fd = las_connect_unix(plan.path)
    guard fd >= 0 else {
      throw BenchError("connect \(plan.path): \(String(cString: strerror(-fd)))")
    }
    _ = las_set_nonblocking(fd, 1)
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_ADD), fd, UInt32(LAS_EPOLLIN))
    clients[slot].fd = fd
    clients[slot].carry.removeAll(keepingCapacity: true)
    slotOfFD[Int(fd)] = Int32(slot)
    live += 1
  }

  private mutating func disconnect(_ slot: Int) {
    let fd = clients[slot].fd
    guard fd >= 0 else { return }
    slotOfFD[Int(fd)] = -1
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_DEL), fd, 0)
    close(fd)
    clients[slot].fd = -1
    live -= 1
  }

  private mutating func send(_ slot: Int) {
    if let total = plan.totalResponses, sentTotal >= total { return }
    let request = plan.requests[clients[slot].sent % plan.requests.count]
    clients[slot].sent += 1
    sentTotal += 1
    clients[slot].sentAt = Clock.nanoseconds()
    let fd = clients[slot].fd
    // Small requests into an almost empty socket buffer: a short write would be a bench bug.
    let written = request.withUnsafeBytes { las_send(fd, $0.baseAddress, $0.count) }
    if written != request.count {
      result.disconnects += 1
      disconnect(slot)
    }
  }

  private mutating func receive(_ slot: Int, buffer: UnsafeMutableRawBufferPointer, now: UInt64) {
    let fd = clients[slot].fd
    let count = las_recv(fd, buffer.baseAddress, buffer.count)
    if count == -Int(EAGAIN) { return }
    if count <= 0 {
      result.disconnects += 1
      disconnect(slot)
      return
    }
    let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count]).bindMemory(to: UInt8.self)
    var lineStart = 0
    var answered = 0
    while let newline = bytes[lineStart...].firstIndex(of: 0x0A) {
      if clients[slot].carry.isEmpty {
        answered += classify(UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]))
      } else {
        clients[slot].carry.append(contentsOf: bytes[lineStart..<newline])
        let line = clients[slot].carry
        clients[slot].carry.removeAll(keepingCapacity: true)
        answered += line.withUnsafeBufferPointer { classify($0) }
      }
      lineStart = newline + 1
    }
    if lineStart < count { clients[slot].carry.append(contentsOf: bytes[lineStart..<count]) }
    for _ in 0..<answered { answer(slot, now: now) }
  }

  /// 1 for a response line (counting an error), 0 for a notification.
  private mutating func classify(_ line: UnsafeBufferPointer<UInt8>) -> Int {
    // Responses start `{"jsonrpc":"2.0","id"` (or `[` for a batch); notifications `…,"method"`.
    let isResponse =
      line.first == UInt8(ascii: "[") || (line.count > 18 && line[18] == UInt8(ascii: "i"))
    guard isResponse else {
      if counting { result.notifications += 1 }
      return 0
    }
    if counting && !contains(line, Self.resultKey) { result.errors += 1 }
    return 1
  }

  private static let resultKey = Array(#""result":"#.utf8)

  private func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard line.count >= needle.count else { return false }
    var index = 0
    while index <= line.count - needle.count {
      if line[index] == needle[0] {
        var match = true
        for offset in 1..<needle.count where line[index + offset] != needle[offset] {
          match = false
          break
        }
        if match { return true }
      }
      index += 1
    }
    return false
  }

  private mutating func answer(_ slot: Int, now: UInt64) {
    if counting && now <= windowEnd {
      result.responses += 1
      if plan.recordLatency {
        result.latencies.append(UInt32(min(now - clients[slot].sentAt, UInt64(UInt32.max))))
      }
    }
    if let every = plan.reconnectEvery, clients[slot].sent % every == 0 {
      disconnect(slot)
      do { try connect(slot) } catch { return }
    }
    send(slot)
  }
}
