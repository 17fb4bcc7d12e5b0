import LocalAuthBroker

extension EventLoop {
  /// Runs `body` isolated to `broker`, whose executor is this loop, from the loop thread: the
  /// request path's broker hop. Same contract as `broker.assumeIsolated` (it traps off the loop
  /// thread, in release builds too), at a fraction of its cost: the check is one `pthread_equal`
  /// instead of the concurrency runtime's executor lookup (`make bench-profile`: ~1,200
  /// instructions per request less; docs/performance.md).
  @inline(__always)
  func onLoop<T>(_ broker: Broker, _ body: (isolated Broker) -> T) -> T {
    checkIsolated()
    return withoutActuallyEscaping(body) { isolatedBody in
      // The loop is the broker's executor (Daemon passes it) and this is the loop thread, so
      // the broker's isolation holds: the cast only drops the compile-time annotation.
      unsafeBitCast(isolatedBody, to: ((Broker) -> T).self)(broker)
    }
  }

  /// `onLoop` for the request path: `body` is a function, not a closure that captures (a closure
  /// costs two boxed contexts per call, the escape check of `withoutActuallyEscaping` and a
  /// reabstraction thunk: ~650 instructions and 2 allocations a request).
  @inline(__always)
  func onLoop<Argument, T>(
    _ broker: Broker, _ argument: Argument, _ body: @escaping (isolated Broker, Argument) -> T
  ) -> T {
    checkIsolated()
    return unsafeBitCast(body, to: ((Broker, Argument) -> T).self)(broker, argument)
  }
}
