import Glibc

/// A detached POSIX thread for one blocking reader loop (pthread_create), so the client
/// needs no Foundation `Thread` (and a static localauthctl carries no ICU data).
public enum ReaderThread {
  /// The closure a new thread runs, boxed to cross pthread_create's `void *`.
  private final class Body {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }

  /// Starts `body` on a new detached thread.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { argument in
        let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
        body.run()
        return nil
      }, box)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      fatalError("pthread_create failed: \(result)")
    }
    _ = pthread_detach(thread)
  }
}
