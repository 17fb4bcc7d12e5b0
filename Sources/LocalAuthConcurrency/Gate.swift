import Glibc

/// A one-time signal: threads `wait` until some thread calls `open`, after which every wait
/// returns at once. A pthread mutex and condition variable (ThreadSanitizer understands them).
/// `@unchecked Sendable`: `isOpen` is read and written only under the mutex.
public final class Gate: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var isOpen = false

  /// A closed gate.
  public init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Opens the gate: every waiter, now or later, goes on.
  public func open() {
    pthread_mutex_lock(mutex)
    isOpen = true
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Blocks the calling thread until the gate is open.
  public func wait() {
    pthread_mutex_lock(mutex)
    while !isOpen { pthread_cond_wait(condition, mutex) }
    pthread_mutex_unlock(mutex)
  }
}
