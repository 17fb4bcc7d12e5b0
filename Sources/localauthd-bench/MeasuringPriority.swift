import Glibc
import Synchronization

/// How the client that a hostile row measures shares the load generator's CPU with the flood.
///
/// The bench pins the daemon to one CPU and all its load to the other, so the flood (another
/// uid's attacker, the 64 flooding connections) and the well-behaved client that measures run on
/// the same CPU. At the same priority the measuring client waits for the flood's time slices
/// (milliseconds) before it even reads an answer that the daemon sent in microseconds: its p99 is
/// then the load generator's scheduling (and the other programs' on a busy machine). Run first
/// (`SCHED_FIFO`, needs root), it reads each answer as soon as it arrives and the flood runs
/// whenever it waits for the daemon, which is most of the time: its p99 is what the daemon makes
/// it wait. Both are measured (docs/performance.md, "The hostile rows").
enum MeasuringPriority {
  /// The measuring client runs at the flood's priority (the figure before issue 23).
  case shared
  /// The measuring client runs before anything else on its CPU.
  case first

  /// Runs `body` on the calling thread at this priority, then restores the thread's. When the
  /// kernel refuses the real-time priority (the bench is not root) it says so and runs `body` at
  /// the thread's own.
  func run<T>(_ body: () throws(BenchError) -> T) throws(BenchError) -> T {
    guard self == .first else { return try body() }
    var parameters = sched_param()
    parameters.sched_priority = 1
    // Pid 0 is the calling thread.
    guard sched_setscheduler(0, SCHED_FIFO, &parameters) == 0 else {
      printError(
        "bench: SCHED_FIFO refused (\(String(cString: strerror(errno)))): the hostile rows' "
          + "measuring client shares its CPU with the flood")
      return try body()
    }
    defer {
      parameters.sched_priority = 0
      sched_setscheduler(0, SCHED_OTHER, &parameters)
    }
    return try body()
  }
}

/// A thread that keeps one CPU busy, doing nothing else, for the control figure of the hostile
/// rows: what sharing the measuring client's CPU with any busy thread does to its p99, with no
/// flood reaching the daemon. `@unchecked Sendable`: `stopping` is atomic, and `thread` is written
/// by `init` and read by `join`, both on the main thread.
final class BusyThread: @unchecked Sendable {
  // `thread` is written by `init` and read by `join`, both on the main thread.
  private let stopping = Atomic<Bool>(false)
  private var thread = pthread_t()

  /// Starts spinning.
  init() {
    let unmanaged = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let busy = Unmanaged<BusyThread>.fromOpaque(raw!).takeRetainedValue()
        while !busy.stopping.load(ordering: .relaxed) {}
        return nil
      }, unmanaged)
  }

  /// Stops the spinning and waits for the thread.
  func join() {
    stopping.store(true, ordering: .relaxed)
    pthread_join(thread, nil)
  }
}
