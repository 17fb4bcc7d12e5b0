import Dispatch
import Foundation
import LocalAuthConcurrency
import Sensors
import Testing

@testable import LocalAuthServer

/// Loop-only state is checked, not only commented (issue 20): a `LoopBound` value may be used on
/// its loop's thread and traps, in debug builds, anywhere else.
@Suite struct LoopBoundTests {
  @Test func theLoopThreadReadsAndChangesTheValue() throws {
    let loop = try EventLoop()
    let bound = LoopBound([1, 2], loop: loop)
    bound.value.append(3)
    #expect(bound.value == [1, 2, 3])
  }

  #if DEBUG
    @Test func touchingTheValueOffTheLoopThreadTraps() async {
      await #expect(processExitsWith: .failure) {
        let loop = try EventLoop()
        let bound = LoopBound(0, loop: loop)
        let done = DispatchSemaphore(value: 0)
        let other = Thread {
          bound.value += 1
          done.signal()
        }
        other.start()
        done.wait()
      }
    }
  #endif
}
