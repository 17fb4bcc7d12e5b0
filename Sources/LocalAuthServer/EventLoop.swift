import CLocalAuthSystem
import Glibc
import LocalAuthConcurrency
import Sensors
import Synchronization

/// Something the loop calls when its file descriptor is ready. Called on the loop thread only.
protocol LoopHandler: AnyObject {
  /// Handles the epoll events for the descriptor.
  func handle(events: UInt32)
}

/// One epoll thread that owns every socket and is also the broker actor's executor: jobs enqueued
/// from other threads wake it through an eventfd. Everything but `enqueue` runs on the loop thread:
/// that state is `LoopBound` to `thread` (checked in debug builds); `jobs` sits behind a Mutex.
public final class EventLoop: SerialExecutor, SerialLoop, Sendable {
  let epollFD: Int32
  private let wakeFD: Int32
  private let jobs = Mutex<[UnownedJob]>([])
  private let wakePending = Atomic<Bool>(false)
  /// The thread that runs the loop: the creator until `run()` starts.
  let thread = LoopThread()
  private let state: LoopBound<LoopState>

  /// What only the loop thread touches.
  fileprivate struct LoopState {
    /// The client connections, indexed by descriptor (no hashing per event; grows to the highest
    /// descriptor seen). One reference a slot, 8 bytes: part of what an idle connection costs.
    var connections: [Connection?] = []
    /// The other watched descriptors' handlers (listeners, signals, driver buses): a few.
    var handlers: [Int32: any LoopHandler] = [:]
    /// The connections to flush at the end of this turn.
    var dirty: [Connection] = []
    /// The connections being flushed (the previous `dirty`; kept for its capacity).
    var flushing: [Connection] = []
    var running = true
    var afterTurn: (() -> Void)?
    var turn: UInt64 = 0
    var beforeOutput: (() -> Void)?
    var tickMilliseconds: Int32 = -1
  }

  /// Called after each turn of the loop (status updates, idle checks). Loop thread only.
  var afterTurn: (() -> Void)? {
    get { state.value.afterTurn }
    set { state.value.afterTurn = newValue }
  }
  /// Counts the loop's turns (one epoll_wait and what it reported each).
  var turn: UInt64 { state.value.turn }
  /// Called before buffered output goes to clients (the daemon writes its log first, so a log line
  /// is out before the answer it describes). Loop thread only.
  var beforeOutput: (() -> Void)? {
    get { state.value.beforeOutput }
    set { state.value.beforeOutput = newValue }
  }
  /// The longest the loop sleeps without events, in milliseconds (-1: forever), so `afterTurn` runs.
  var tickMilliseconds: Int32 {
    get { state.value.tickMilliseconds }
    set { state.value.tickMilliseconds = newValue }
  }

  /// A loop with its epoll and wake descriptors.
  public init() throws(SystemError) {
    epollFD = try SystemError.check(las_epoll_create(), "epoll_create1")
    wakeFD = try SystemError.check(las_eventfd(), "eventfd")
    state = LoopBound(LoopState(), loop: thread)
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_ADD), wakeFD, UInt32(LAS_EPOLLIN))
  }

  /// Lets `assumeIsolated` succeed on the loop thread (and only there).
  public func checkIsolated() {
    precondition(thread.isCurrent, "not on the localauthd event loop thread")
  }

  /// Traps off the loop thread (`LoopBound`'s check, made in debug builds only).
  public func assertOnLoop() { thread.assertOnLoop() }

  /// Queues a job to run on the loop thread (from any thread).
  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    jobs.withLock { $0.append(unowned) }
    if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
      _ = las_eventfd_signal(wakeFD)
    }
  }

  /// Watches a descriptor for the given events.
  func register(_ fd: Int32, events: UInt32, handler: any LoopHandler) {
    guard fd >= 0 else { return }
    state.value.handlers[fd] = handler
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_ADD), fd, events)
  }

  /// Watches a client connection's descriptor for input.
  func register(connection: Connection) {
    let index = Int(connection.fd)
    state.value.place(connection, at: index)
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_ADD), connection.fd, UInt32(LAS_EPOLLIN))
  }

  /// The open client connections.
  var openConnections: [Connection] { state.value.connections.compactMap { $0 } }

  /// Changes the events watched for a descriptor.
  func modify(_ fd: Int32, events: UInt32) {
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_MOD), fd, events)
  }

  /// Stops watching a descriptor.
  func unregister(_ fd: Int32) {
    guard fd >= 0 else { return }
    state.value.forget(fd)
    _ = las_epoll_ctl(epollFD, Int32(LAS_EPOLL_CTL_DEL), fd, 0)
  }

  /// Marks a connection as having output to flush at the end of this turn.
  func markDirty(_ connection: Connection) {
    state.value.dirty.append(connection)
  }

  /// Ends `run()` after the current turn.
  func stop() { state.value.running = false }

  /// Runs the loop on the calling thread until `stop()`.
  func run() {
    thread.claim()
    let capacity = 256
    var fds = [Int32](repeating: 0, count: capacity)
    var events = [UInt32](repeating: 0, count: capacity)
    while state.value.running {
      state.value.turn &+= 1
      let count = las_epoll_wait(epollFD, &fds, &events, Int32(capacity), tickMilliseconds)
      if count < 0 { continue }
      for index in 0..<Int(count) {
        let fd = fds[index]
        if fd == wakeFD {
          _ = las_eventfd_drain(wakeFD)
          wakePending.store(false, ordering: .releasing)
          runJobs()
        } else {
          let slot = Int(fd)
          if let connection = state.value.connection(at: slot) {
            connection.handle(events: events[index])
          } else {
            let handler = state.value.handlers[fd]
            handler?.handle(events: events[index])
          }
        }
      }
      runJobs()
      flushDirty()
      afterTurn?()
    }
  }

  private func runJobs() {
    var rounds = 0
    while rounds < 64 {
      // Taken by swapping, not copied and cleared (that copied the array, an allocation a turn).
      let batch = jobs.withLock { jobs -> [UnownedJob] in
        if jobs.isEmpty { return [] }
        var batch: [UnownedJob] = []
        swap(&batch, &jobs)
        return batch
      }
      if batch.isEmpty { return }
      for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
      flushDirty()
      rounds += 1
    }
    // Leave the rest for the next turn so sockets are not starved.
    _ = las_eventfd_signal(wakeFD)
  }

  private func flushDirty() {
    guard !state.value.dirty.isEmpty else { return }
    beforeOutput?()
    // The two lists trade places each turn, so neither is copied or reallocated.
    state.value.swapDirty()
    for connection in state.value.flushing { connection.flush() }
    state.value.flushing.removeAll(keepingCapacity: true)
  }
}

extension EventLoop.LoopState {
  /// The connection watched on descriptor `slot`, if any.
  @inline(__always)
  func connection(at slot: Int) -> Connection? {
    slot < connections.count ? connections[slot] : nil
  }

  /// Puts `connection` in the table at `index`, growing it to the highest descriptor seen.
  mutating func place(_ connection: Connection, at index: Int) {
    if index >= connections.count {
      let grown = max(index + 1, connections.count + connections.count / 2)
      connections.append(contentsOf: repeatElement(nil, count: grown - connections.count))
    }
    connections[index] = connection
  }

  /// Forgets whatever watched `fd`.
  mutating func forget(_ fd: Int32) {
    if Int(fd) < connections.count { connections[Int(fd)] = nil }
    handlers[fd] = nil
  }

  /// `dirty` and `flushing` trade places.
  mutating func swapDirty() { swap(&dirty, &flushing) }
}

/// A failed system call: the call's name and errno.
public struct SystemError: Error, Sendable, CustomStringConvertible {
  /// The C call that failed.
  public var call: String
  /// The errno value.
  public var errno: Int32

  /// "bind: Address already in use".
  public var description: String { "\(call): \(String(cString: strerror(errno)))" }

  /// Returns a non-negative result, or throws for a negative errno result.
  static func check(_ result: Int32, _ call: String) throws(SystemError) -> Int32 {
    if result < 0 { throw SystemError(call: call, errno: -result) }
    return result
  }
}
