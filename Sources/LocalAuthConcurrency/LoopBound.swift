import Glibc
import Synchronization

/// Something that runs its work one piece at a time on one thread, or one executor: the daemon's
/// event loop, the broker's executor, a driver's bus loop. What a `LoopBound` value is bound to.
public protocol SerialLoop: AnyObject, Sendable {
  /// Traps when the caller is not on the loop. `LoopBound` calls it in debug builds only.
  func assertOnLoop()
}

/// A value that belongs to one loop (swift-nio's `NIOLoopBoundBox`): every access checks, in debug
/// builds, that it happens on the loop, and traps otherwise. Loop-only state lives in one of these
/// instead of in a class that is `@unchecked Sendable` by comment. Release builds pay nothing for
/// the check.
///
/// The value sits behind a pointer, not in a class property, so the request path pays no dynamic
/// exclusivity check for it (`swift_beginAccess`: `make bench-profile` counted ~345 instructions
/// per request more with a class property); the loop check is what guards it. The pointer is
/// stored in a non-generic base class, so reaching it needs no generic metadata (a call per access).
/// `@unchecked Sendable`: the loop guards the value; every access checks it runs on `loop`.
public final class LoopBound<Value>: LoopBoundStorage, @unchecked Sendable {
  /// Binds `value` to `loop` (from any thread: nothing else can see it yet).
  public init(_ value: Value, loop: any SerialLoop) {
    let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    storage.initialize(to: value)
    super.init(storage, loop: loop)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  @inlinable var pointer: UnsafeMutablePointer<Value> { raw.assumingMemoryBound(to: Value.self) }

  /// The value; reading or changing it off the loop traps in debug builds. Addressors, not
  /// coroutines: an access is the pointer, inlined or not.
  @inlinable public var value: Value {
    unsafeAddress {
      #if DEBUG
        loop.assertOnLoop()
      #endif
      return UnsafePointer(pointer)
    }
    unsafeMutableAddress {
      #if DEBUG
        loop.assertOnLoop()
      #endif
      return pointer
    }
  }
}

/// Where a `LoopBound` keeps its value and its loop (not generic: fixed offsets).
/// `@unchecked Sendable`: `raw` is touched only on `loop`, asserted on every access.
public class LoopBoundStorage: @unchecked Sendable {
  // Guarded by the loop: `raw` is touched only on `loop`, asserted on every access.
  @usableFromInline let raw: UnsafeMutableRawPointer
  /// The loop that owns the value.
  public let loop: any SerialLoop

  init(_ raw: UnsafeMutableRawPointer, loop: any SerialLoop) {
    self.raw = raw
    self.loop = loop
  }
}

/// The thread a loop runs on: the creator's until `claim()` is called from the thread that runs it.
/// Thread-safe (an atomic thread id).
public final class LoopThread: SerialLoop {
  @usableFromInline let owner = Atomic<UInt>(pthread_self())

  /// The calling thread's loop.
  public init() {}

  /// The loop runs on the calling thread from now on.
  public func claim() { owner.store(pthread_self(), ordering: .relaxed) }

  /// Whether the caller is on the loop's thread.
  @inlinable
  public var isCurrent: Bool { pthread_equal(owner.load(ordering: .relaxed), pthread_self()) != 0 }

  /// Traps off the loop's thread.
  public func assertOnLoop() {
    precondition(isCurrent, "loop-bound state touched off its loop's thread")
  }
}

/// A serial executor as a loop: on it means isolated to it (the executor runs the job, or says so
/// in `checkIsolated`). What an actor's loop-only state is bound to. Thread-safe (no state).
public final class ExecutorLoop: SerialLoop {
  /// The executor.
  public let executor: any SerialExecutor

  /// The loop of `executor`.
  public init(_ executor: any SerialExecutor) { self.executor = executor }

  /// Traps unless the caller is isolated to the executor.
  public func assertOnLoop() {
    executor.preconditionIsolated("loop-bound state touched off its executor")
  }
}
