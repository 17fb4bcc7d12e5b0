import LocalAuthTestSupport
import Sensors
import Testing

/// The daemon's side of `DriverLifecycle` on simulated sensors: a reload keeps a driver whose setup
/// did not change, replaces one whose setup did, and stopping fails what waits on the old one.
@Suite struct DriverLifecycleTests {
  private func sensor(_ name: String, _ setup: SimulatedSensor.Setup = .init()) -> SimulatedSensor {
    SimulatedSensor(name: name, kind: .faceID, setup: setup, time: TestClock())
  }

  @Test func aReloadKeepsUnchangedDriversAndReplacesChangedOnes() {
    let unchanged = sensor("face", .init(enrolled: ["alice"]))
    let changed = sensor("finger")
    let removed = sensor("gone")
    let running = SensorRegistry([unchanged, changed, removed])
    let successor = sensor("finger", .init(defaultBehavior: .match))
    let reloaded = running.reloaded(
      SensorRegistry([sensor("face", .init(enrolled: ["alice"])), successor]))
    #expect(reloaded.drivers.count == 2)
    #expect(reloaded.driver(named: "face") === unchanged)
    #expect(reloaded.driver(named: "finger") === successor)
    running.stopDrivers(notIn: reloaded)
    #expect(unchanged.state(for: 0).available)
    #expect(!changed.state(for: 0).available)
    #expect(!removed.state(for: 0).available)
  }

  @Test func aDriverOfAnotherKindOrOwnerIsNotKept() {
    let running = sensor("face")
    #expect(
      running.reload(SimulatedSensor(name: "face", kind: .touchID, time: TestClock())) == .replaced)
    #expect(running.reload(sensor("face", .init(owner: 1000))) == .replaced)
    #expect(running.reload(sensor("face")) == .kept)
    running.stop()
    #expect(running.reload(sensor("face")) == .replaced, "a stopped driver is never kept")
  }

  @Test func stopFailsTheWaitingCaptureAndEveryLaterOne() async {
    let running = sensor("face")
    running.start()
    let waiting = Task { try await running.capture(CaptureRequest(requestID: "r", attempt: 1)) }
    await letOthersRun()
    running.stop()
    #expect(await result(of: waiting, within: .seconds(30)) == .failure(.driverNotReady))
    let later = Task { try await running.capture(CaptureRequest(requestID: "r", attempt: 2)) }
    #expect(await result(of: later, within: .seconds(30)) == .failure(.driverNotReady))
    _ = running.script([.match(identity: nil)], replace: false)
    running.start()
    #expect(!running.state(for: 0).available, "start() after stop() does nothing")
  }
}
