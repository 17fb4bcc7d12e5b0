/// A value that belongs to one event loop's thread (swift-nio's `NIOLoopBoundBox`): every access
/// checks, in debug builds, that it happens on the loop thread, and traps otherwise. Loop-only
/// state lives in one of these instead of in a class that is `@unchecked Sendable` by comment.
final class LoopBound<Value>: @unchecked Sendable {
  // Guarded by the loop: `stored` is touched only on `loop`'s thread, asserted on every access.
  private var stored: Value
  /// The loop whose thread owns the value.
  let loop: EventLoop

  /// Binds `value` to `loop` (from any thread: nothing else can see it yet).
  init(_ value: Value, loop: EventLoop) {
    stored = value
    self.loop = loop
  }

  /// The value; reading or changing it off the loop thread traps in debug builds.
  var value: Value {
    @inline(__always) get {
      loop.assertOnLoopThread()
      return stored
    }
    @inline(__always) _modify {
      loop.assertOnLoopThread()
      yield &stored
    }
  }
}
