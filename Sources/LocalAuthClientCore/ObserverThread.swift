import Glibc

/// The one thread of its own that `LAEnvironment` follows the daemon and calls its observers on,
/// as Apple's does on a queue of its own: a change is heard while the app's cooperative threads
/// are all busy or blocked (in a synchronous `canEvaluatePolicy`, say). A task executor; the
/// thread lives as long as the process and sleeps while there is nothing to run.
/// `@unchecked Sendable`: `jobs` is read and written only under `mutex`.
public final class ObserverThread: TaskExecutor, @unchecked Sendable {
  /// The process's observer thread, started on first use.
  public static let shared = ObserverThread()

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var jobs: [UnownedJob] = []

  private init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
    ReaderThread.start { [self] in run() }
  }

  /// Queues a job for the thread.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Runs queued jobs in order, forever.
  private func run() {
    while true {
      pthread_mutex_lock(mutex)
      while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
      let batch = jobs
      jobs.removeAll()
      pthread_mutex_unlock(mutex)
      for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
  }
}
