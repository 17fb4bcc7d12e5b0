import LocalAuthTestSupport
import Sensors
import Testing

/// ENROLL, UNENROLL, CONNECT, DISCONNECT and `state()` snapshots of `SimulatedSensor`.
@Suite("SimulatedSensor state", .timeLimit(.minutes(1)))
struct SimulatedSensorStateTests {
  @Test("state() reports the setup")
  func initialState() {
    let clock = TestClock()
    let sensor = SimulatedSensor(
      name: "touch", kind: .touchID,
      setup: .init(available: false, removable: true, enrolled: ["a", "b", "a"]), time: clock)
    let state = sensor.state()
    #expect(state.name == "touch" && state.kind == .touchID)
    #expect(!state.available && state.removable && state.connected)
    #expect(
      state.enrolled == [
        Enrollment(identity: "a", serial: 1), Enrollment(identity: "b", serial: 2),
      ])
  }

  @Test("state changes at the head of the queue apply immediately, also at setup")
  func headAppliesImmediately() {
    let (sensor, _) = makeSensor(
      enrolled: ["alice"], script: script("ENROLL bob", "DISCONNECT", "NOMATCH"), removable: true)
    #expect(sensor.state().enrolled.map(\.identity) == ["alice", "bob"])
    #expect(!sensor.state().connected)
    #expect(sensor.queuedCommands == 1)
    #expect(
      sensor.script(script("CONNECT", "UNENROLL alice", "UNENROLL nobody"), replace: true) == 0)
    #expect(sensor.state().connected)
    #expect(sensor.state().enrolled.map(\.identity) == ["bob"])
  }

  @Test("state changes behind an answer wait their turn")
  func inOrderBehindAnswers() async throws {
    let (sensor, _) = makeSensor(enrolled: ["alice"])
    _ = sensor.script(
      script("MATCH bob", "ENROLL bob", "MATCH bob", "UNENROLL bob", "MATCH bob"), replace: false)
    #expect(sensor.state().enrolled.map(\.identity) == ["alice"], "ENROLL is not at the head yet")
    #expect(try await sensor.capture(captureRequest(1)) == .noMatch)
    #expect(try await sensor.capture(captureRequest(2)) == .match(identity: "bob"))
    #expect(try await sensor.capture(captureRequest(3)) == .noMatch)
    #expect(sensor.state().enrolled.map(\.identity) == ["alice"])
  }

  @Test(
    "a state change that reaches the head after a capture applies at once",
    arguments: ["ENROLL bob", "DISCONNECT"])
  func headAfterCapture(_ change: String) async throws {
    let (sensor, _) = makeSensor(
      enrolled: ["alice"], script: script("NOMATCH", change), removable: true)
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
    // ScriptCommand.isStateChange: "such commands take effect as soon as they reach the head of the queue".
    #expect(sensor.queuedCommands == 0)
    let state = sensor.state()
    if change == "DISCONNECT" {
      #expect(!state.connected)
    } else {
      #expect(state.enrolled.map(\.identity) == ["alice", "bob"])
    }
  }

  @Test("enroll and unenroll return the enrolled identities and show in state()")
  func enrollAndUnenroll() {
    let (sensor, _) = makeSensor(enrolled: [])
    #expect(sensor.state().enrolled.isEmpty)
    #expect(sensor.enroll("alice") == ["alice"])
    #expect(sensor.enroll("bob") == ["alice", "bob"])
    #expect(sensor.enroll("alice") == ["alice", "bob"], "enrolling twice is harmless")
    #expect(sensor.unenroll("alice") == ["bob"])
    #expect(sensor.unenroll("nobody") == ["bob"])
    #expect(sensor.state().enrolled.map(\.identity) == ["bob"])
  }

  @Test("serials are unique per enrollment and change on re-enroll")
  func serials() {
    let (sensor, _) = makeSensor(enrolled: ["alice"])
    let first = sensor.state().enrolled
    _ = sensor.enroll("alice")
    #expect(sensor.state().enrolled == first, "enrolling an enrolled identity keeps its template")
    _ = sensor.unenroll("alice")
    _ = sensor.enroll("alice")
    let second = sensor.state().enrolled
    #expect(second.map(\.identity) == ["alice"])
    #expect(second[0].serial != first[0].serial)
    _ = sensor.script(script("UNENROLL alice", "ENROLL alice"), replace: false)
    let third = sensor.state().enrolled
    #expect(third[0].serial != second[0].serial && third[0].serial != first[0].serial)
  }

  @Test("state() is a snapshot: later changes do not alter it")
  func snapshot() {
    let (sensor, _) = makeSensor(enrolled: ["alice"], removable: true)
    let before = sensor.state()
    _ = sensor.enroll("bob")
    _ = sensor.script([.disconnect], replace: false)
    #expect(before.enrolled.map(\.identity) == ["alice"] && before.connected)
    #expect(sensor.state() != before)
  }

  @Test("an enrollment made directly is matched by the next capture")
  func directEnrollMatches() async throws {
    let (sensor, _) = makeSensor(
      enrolled: [], script: [.match(identity: "erin"), .match(identity: "erin")])
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
    _ = sensor.enroll("erin")
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "erin"))
  }

  @Test("readiness(for:) says what state(for:) says, in every state and for each owner")
  func readinessAgreesWithTheSnapshot() {
    let (sensor, _) = makeSensor(enrolled: ["alice"], removable: true)
    func agrees(_ note: Comment) {
      for owner: UInt32 in [0, 1000] {
        #expect(
          sensor.readiness(for: owner) == SensorReadiness(sensor.state(for: owner)), note)
      }
    }
    agrees("at setup")
    #expect(sensor.readiness(for: 0).enrolled && !sensor.readiness(for: 1000).enrolled)
    _ = sensor.script(script("DISCONNECT"), replace: true)
    agrees("disconnected")
    #expect(!sensor.readiness(for: 0).connected && sensor.readiness(for: 0).removable)
    _ = sensor.script(script("CONNECT", "UNENROLL alice"), replace: true)
    agrees("nothing enrolled")
    #expect(!sensor.readiness(for: 0).enrolled && sensor.readiness(for: 0).connected)
    _ = sensor.enroll("bob", for: 1000)
    agrees("another owner enrolled")
    #expect(sensor.readiness(for: 1000).enrolled)
    sensor.stop()
    agrees("stopped")
    #expect(!sensor.readiness(for: 0).available)
  }
}

/// `SensorRegistry` and `SensorKind`.
@Suite("SensorRegistry")
struct SensorRegistryTests {
  @Test("drivers are found by name and by kind, in registration order")
  func lookup() {
    let clock = TestClock()
    var registry = SensorRegistry([
      SimulatedSensor(name: "face", kind: .faceID, time: clock),
      SimulatedSensor(name: "pin", kind: .passcode, time: clock),
    ])
    registry.register(SimulatedSensor(name: "thumb", kind: .touchID, time: clock))
    #expect(registry.drivers.map(\.name) == ["face", "pin", "thumb"])
    #expect(registry.driver(named: "pin")?.kind == .passcode)
    #expect(registry.driver(named: "Face") == nil)
    #expect(registry.first(where: \.isBiometric)?.name == "face")
    #expect(registry.first(where: { $0 == .touchID })?.name == "thumb")
    #expect(registry.first(where: { $0 == .companion }) == nil)
    #expect(SensorRegistry().drivers.isEmpty)
  }

  @Test("kinds: biometric or not, and when the fallback is offered")
  func kinds() {
    #expect(SensorKind.allCases.filter(\.isBiometric) == [.faceID, .touchID, .opticID])
    #expect(SensorKind.allCases.map(\.failuresBeforeFallbackOffered) == [2, 1, 1, 1, 1])
    // Apple's LAPolicy page: Face ID stops after two failed attempts, Touch ID after three.
    #expect(
      SensorKind.allCases.map(\.stopsTryingAtFallbackOffer) == [true, false, false, false, false])
    #expect(SensorKind.faceID.failedMatchesAllowed(configured: 3) == 2)
    #expect(SensorKind.faceID.failedMatchesAllowed(configured: 1) == 1)
    #expect(SensorKind.touchID.failedMatchesAllowed(configured: 3) == 3)
    #expect(SensorKind.touchID.failedMatchesAllowed(configured: 4) == 4)
    #expect(
      SensorKind.allCases.map(\.rawValue) == [
        "faceID", "touchID", "opticID", "passcode", "companion",
      ])
  }

  @Test("a scripted choice: CANCEL or FALLBACK next, after any SLEEP")
  func choiceIsScriptedNext() {
    let (sensor, _) = makeSensor(enrolled: ["alice"], script: script("SLEEP 5", "FALLBACK"))
    #expect(sensor.choiceIsScriptedNext)
    _ = sensor.script(script("CANCEL"), replace: true)
    #expect(sensor.choiceIsScriptedNext)
    for other in ["NOMATCH", "MATCH", "RETRY tooFast", "PASSCODE 1234"] {
      _ = sensor.script(script(other, "FALLBACK"), replace: true)
      #expect(!sensor.choiceIsScriptedNext, "\(other) first")
    }
    _ = sensor.script([], replace: true)
    #expect(!sensor.choiceIsScriptedNext)
  }
}
