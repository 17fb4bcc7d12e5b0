import Dispatch
import Glibc
import LocalAuthBroker
import Synchronization

/// The rights store's thread, `niceness` below the main thread (the event loop): a store call
/// costs ~600,000 instructions, mostly SQLite, and at the loop's own priority a flood of store
/// requests took half of the daemon's CPU from the loop, so every other client waited for the
/// store's time slices (docs/performance.md, "The hostile rows"). Below it, the loop takes the CPU
/// back as soon as it has work, and the store still gets about a tenth of a busy CPU and all of an
/// idle one. The thread starts with the first job and ends, after the jobs queued, when this
/// object goes (with its broker). Thread-safe.
public final class BelowLoopStoreThread: WorkerThread {
  /// How much nicer the store's thread is than the main thread (at most 19 in all).
  public static let niceness: Int32 = 10

  private let queue = StoreJobQueue()

  /// A thread that starts with the first job.
  public init() {}

  deinit { queue.finish() }

  /// Runs `job` on the store's thread after the jobs queued before it.
  public func run(_ job: @escaping @Sendable () -> Void) {
    if queue.append(job) { start() }
  }

  private func start() {
    var thread = pthread_t()
    // The thread holds the queue (not this object) until `finish`.
    let unmanaged = Unmanaged.passRetained(queue).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { raw in
        let queue = Unmanaged<StoreJobQueue>.fromOpaque(raw!).takeRetainedValue()
        // Linux keeps a nice value per thread: who 0 is this thread, the process id the main one.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let loop = getpriority(which, id_t(getpid()))
        _ = setpriority(which, 0, min(19, loop + BelowLoopStoreThread.niceness))
        queue.runUntilFinished()
        return nil
      }, unmanaged)
    guard created == 0 else {
      fatalError("localauthd: cannot start the rights store's thread (error \(created))")
    }
    pthread_detach(thread)
  }
}

/// The store thread's jobs, in order, and a semaphore signalled once per job and once at the end.
/// Thread-safe (the jobs are behind a Mutex).
private final class StoreJobQueue: Sendable {
  private struct State {
    var jobs: [@Sendable () -> Void] = []
    var started = false
    var finished = false
  }
  private let state = Mutex(State())
  private let ready = DispatchSemaphore(value: 0)

  /// Queues `job`; true for the first job ever (start the thread).
  func append(_ job: @escaping @Sendable () -> Void) -> Bool {
    let first = state.withLock { state -> Bool in
      state.jobs.append(job)
      defer { state.started = true }
      return !state.started
    }
    ready.signal()
    return first
  }

  /// Ends the thread once the jobs queued before are done.
  func finish() {
    state.withLock { $0.finished = true }
    ready.signal()
  }

  /// Runs the jobs as they come, until `finish` and no job is left.
  func runUntilFinished() {
    while true {
      ready.wait()
      // Every job queued so far, in order (a wake-up finding none was for a job already run).
      let (batch, finished) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
        var batch: [@Sendable () -> Void] = []
        swap(&batch, &state.jobs)
        return (batch, state.finished)
      }
      for job in batch { job() }
      if finished && batch.isEmpty { return }
    }
  }
}
