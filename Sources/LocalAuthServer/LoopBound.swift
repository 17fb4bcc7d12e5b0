/// A value that belongs to one event loop's thread (swift-nio's `NIOLoopBoundBox`): every access
/// checks, in debug builds, that it happens on the loop thread, and traps otherwise. Loop-only
/// state lives in one of these instead of in a class that is `@unchecked Sendable` by comment.
///
/// The value sits behind a pointer, not in a class property, so the request path pays no dynamic
/// exclusivity check for it (`swift_beginAccess`: `make bench-profile` counted ~345 instructions
/// per request more with a class property); the loop-thread check is what guards it.
final class LoopBound<Value>: @unchecked Sendable {
  // Guarded by the loop: `storage` is touched only on `loop`'s thread, asserted on every access.
  private let storage: UnsafeMutablePointer<Value>
  /// The loop whose thread owns the value.
  let loop: EventLoop

  /// Binds `value` to `loop` (from any thread: nothing else can see it yet).
  init(_ value: Value, loop: EventLoop) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
    self.loop = loop
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// The value; reading or changing it off the loop thread traps in debug builds.
  var value: Value {
    @inline(__always) _read {
      loop.assertOnLoopThread()
      yield storage.pointee
    }
    @inline(__always) _modify {
      loop.assertOnLoopThread()
      yield &storage.pointee
    }
  }
}
