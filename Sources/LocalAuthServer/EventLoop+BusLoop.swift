import ExternalDrivers
import LocalAuthConcurrency
import Sensors

/// The event loop as the loop of driver bus connections (fprintd over sd-bus).
final class EventLoopBus: BusLoop, Sendable {
  private let loop: EventLoop
  /// The watched descriptors' handlers (loop thread only, checked).
  private let watched: LoopBound<[Int32: DescriptorHandler]>
  private let performer: LoopPerformer

  init(loop: EventLoop) {
    self.loop = loop
    watched = LoopBound([:], loop: loop)
    performer = LoopPerformer(loop: loop)
  }

  func watch(_ fd: Int32, events: UInt32, onReady: @escaping () -> Void) {
    if let handler = watched.value[fd] {
      handler.onReady = onReady
      loop.modify(fd, events: events)
    } else {
      let handler = DescriptorHandler(onReady: onReady)
      watched.value[fd] = handler
      loop.register(fd, events: events, handler: handler)
    }
  }

  func unwatch(_ fd: Int32) {
    guard watched.value.removeValue(forKey: fd) != nil else { return }
    loop.unregister(fd)
  }

  func assertOnLoop() { loop.assertOnLoop() }

  func perform(_ work: @escaping @Sendable () -> Void) {
    let performer = self.performer
    Task { await performer.run(work) }
  }

  func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
    let performer = self.performer
    Task {
      try? await Task.sleep(for: delay)
      await performer.run(work)
    }
  }
}

private final class DescriptorHandler: LoopHandler {
  var onReady: () -> Void
  init(onReady: @escaping () -> Void) { self.onReady = onReady }
  func handle(events: UInt32) { onReady() }
}

/// Runs closures on the loop thread (an actor whose executor is the loop).
actor LoopPerformer {
  let loop: EventLoop
  init(loop: EventLoop) { self.loop = loop }
  nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
  func run<Result: Sendable>(_ work: @Sendable () -> Result) -> Result { work() }
}
