import LocalAuthBroker

extension EventLoop {
  /// Runs `body` isolated to `broker`, whose executor is this loop, from the loop thread: the
  /// request path's broker hop. Same contract as `broker.assumeIsolated` (it traps off the loop
  /// thread, in release builds too), at a fraction of its cost: the check is one `pthread_equal`
  /// instead of the concurrency runtime's executor lookup, and no closure context is boxed
  /// (`make bench-profile`: ~1,200 instructions per request less; docs/performance.md).
  @inline(__always)
  func onLoop<T>(_ broker: Broker, _ body: (isolated Broker) -> T) -> T {
    checkIsolated()
    return withoutActuallyEscaping(body) { isolatedBody in
      // The loop is the broker's executor (Daemon passes it) and this is the loop thread, so
      // the broker's isolation holds: the cast only drops the compile-time annotation.
      unsafeBitCast(isolatedBody, to: ((Broker) -> T).self)(broker)
    }
  }
}
