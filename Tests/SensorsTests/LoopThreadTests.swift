import Foundation
import LocalAuthConcurrency
import LocalAuthTestSupport
import Sensors
import Testing

/// The loops a `LoopBound` value can be bound to (issue 20): a thread (`LoopThread`, the event
/// loop's) and an executor (`ExecutorLoop`, the broker's). On it the value answers; off it, it
/// traps in debug builds.
@Suite struct LoopThreadTests {
  @Test func theLoopThreadIsTheCreatorsUntilAnotherClaimsIt() {
    let thread = LoopThread()
    #expect(thread.isCurrent)
    let claimed = LoopBound(false, loop: thread)
    let done = DispatchSemaphore(value: 0)
    let other = Thread {
      thread.claim()
      claimed.value = thread.isCurrent
      done.signal()
    }
    other.start()
    done.wait()
    #expect(!thread.isCurrent)
  }

  @Test func anActorReadsWhatIsBoundToItsExecutor() async {
    let actor = ExecutorActor()
    #expect(await actor.count() == 1)
  }

  #if DEBUG
    @Test func touchingTheValueOffAClaimedLoopTraps() async {
      await #expect(processExitsWith: .failure) {
        let thread = LoopThread()
        let bound = LoopBound(0, loop: thread)
        let done = DispatchSemaphore(value: 0)
        let other = Thread {
          thread.claim()
          done.signal()
        }
        other.start()
        done.wait()
        bound.value += 1
      }
    }

    @Test func touchingTheValueOffItsExecutorTraps() async {
      await #expect(processExitsWith: .failure) {
        let actor = ExecutorActor()
        actor.bound.value += 1
      }
    }
  #endif
}

/// An actor on its own thread executor, with a value bound to that executor.
private actor ExecutorActor {
  let executor = ThreadExecutor()
  let bound: LoopBound<Int>

  init() {
    bound = LoopBound(0, loop: ExecutorLoop(executor))
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func count() -> Int {
    bound.value += 1
    return bound.value
  }
}
