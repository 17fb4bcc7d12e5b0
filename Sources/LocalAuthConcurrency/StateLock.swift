import Glibc

/// A value guarded by a pthread mutex. Used instead of Synchronization's `Mutex` where tests run
/// under ThreadSanitizer: `Mutex` on Linux is built on futexes that the sanitizer cannot see, so
/// every access under it is reported as a race; a pthread mutex is understood. Thread-safe.
/// `@unchecked Sendable`: the value is reached only between pthread_mutex_lock and unlock.
public final class StateLock<State>: @unchecked Sendable {
  // `state` is only touched between pthread_mutex_lock and pthread_mutex_unlock. It lives behind a
  // pointer, not in a stored `var`: the mutex already makes every access exclusive, and a stored
  // property would add the runtime's exclusivity check to each one (~120 instructions a lock,
  // on the request path; docs/performance.md).
  private let state: UnsafeMutablePointer<State>
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  /// A lock around an initial value.
  public init(_ state: State) {
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: state)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state.pointee)
  }
}
