import LocalAuthTestSupport
import Sensors
import Testing

/// What `SimulatedSensor.capture` reports for each scripted command, in order.
@Suite("SimulatedSensor events", .timeLimit(.minutes(1)))
struct SimulatedSensorEventTests {
  @Test("scripted commands produce their events in order, one per capture")
  func eventsInOrder() async throws {
    let (sensor, _) = makeSensor(enrolled: ["alice", "bob"])
    let count = sensor.script(
      script(
        "NOMATCH", "RETRY faceNotCentered", "MATCH bob", "MATCH", "CANCEL", "FALLBACK",
        "PASSCODE 1234",
        "RETRY tooFast"),
      replace: false)
    #expect(count == 8)
    var events: [CaptureEvent] = []
    for attempt in 1...8 { events.append(try await sensor.capture(captureRequest(attempt))) }
    #expect(
      events == [
        .noMatch, .retry(reason: .faceNotCentered), .match(identity: "bob"),
        .match(identity: "alice"),
        .userCancel, .userFallback, .passcode("1234"), .retry(reason: .tooFast),
      ])
    #expect(sensor.queuedCommands == 0)
  }

  @Test("MATCH of an identity that is not enrolled is a noMatch")
  func matchNotEnrolled() async throws {
    let (sensor, _) = makeSensor(enrolled: ["alice"], script: [.match(identity: "mallory")])
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
  }

  @Test(
    "MATCH with nothing enrolled is a noMatch, named or not",
    arguments: [nil, "alice"] as [String?])
  func matchNothingEnrolled(_ identity: String?) async throws {
    let (sensor, _) = makeSensor(enrolled: [], script: [.match(identity: identity)])
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
  }

  @Test("MATCH without identity matches the first enrolled identity")
  func matchFirstEnrolled() async throws {
    let (sensor, _) = makeSensor(enrolled: ["carol", "alice"], script: [.match(identity: nil)])
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "carol"))
  }

  @Test(
    "a passcode sensor's MATCH is a match, enrolled or not",
    arguments: [nil, "anyone"] as [String?])
  func passcodeMatch(_ identity: String?) async throws {
    let (sensor, _) = makeSensor(
      .passcode, name: "passcode", enrolled: [], script: [.match(identity: identity)])
    guard case .match = try await sensor.capture(captureRequest()) else {
      Issue.record("passcode MATCH did not match")
      return
    }
  }

  @Test("a passcode sensor reports typed digits as .passcode")
  func passcodeDigits() async throws {
    let (sensor, _) = makeSensor(
      .passcode, name: "passcode", enrolled: [], script: script("PASSCODE 0000", "NOMATCH"))
    #expect(try await sensor.capture(captureRequest()) == .passcode("0000"))
    #expect(try await sensor.capture(captureRequest(2)) == .noMatch)
  }

  @Test("DEFAULT MATCH and NOMATCH answer every capture once the script is empty")
  func defaults() async throws {
    let (matching, _) = makeSensor(defaultBehavior: .match)
    for attempt in 1...3 {
      #expect(try await matching.capture(captureRequest(attempt)) == .match(identity: "alice"))
    }
    let (rejecting, _) = makeSensor(defaultBehavior: .noMatch)
    for attempt in 1...3 {
      #expect(try await rejecting.capture(captureRequest(attempt)) == .noMatch)
    }
    let (empty, _) = makeSensor(enrolled: [], defaultBehavior: .match)
    #expect(
      try await empty.capture(captureRequest()) == .noMatch, "DEFAULT MATCH with nothing enrolled")
    let (passcode, _) = makeSensor(
      .passcode, name: "passcode", enrolled: [], defaultBehavior: .match)
    guard case .match = try await passcode.capture(captureRequest()) else {
      Issue.record("passcode DEFAULT MATCH did not match")
      return
    }
  }

  @Test("the script runs before the default behaviour")
  func scriptBeforeDefault() async throws {
    let (sensor, _) = makeSensor(defaultBehavior: .match, script: [.noMatch, .cancel])
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
    #expect(try await sensor.capture(captureRequest()) == .userCancel)
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "alice"))
  }

  @Test("DEFAULT in a script changes the behaviour once it reaches the head")
  func defaultInScript() async throws {
    let (sensor, _) = makeSensor(defaultBehavior: .wait)
    _ = sensor.script(script("NOMATCH", "DEFAULT MATCH"), replace: false)
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "alice"))
    _ = sensor.script([.setDefault(.noMatch)], replace: false)
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
  }

  @Test("a disconnected sensor's capture returns .disconnected without consuming the script")
  func disconnected() async throws {
    let (sensor, _) = makeSensor(removable: true)
    _ = sensor.script(script("DISCONNECT", "MATCH"), replace: false)
    #expect(sensor.state().connected == false)
    #expect(try await sensor.capture(captureRequest()) == .disconnected)
    #expect(try await sensor.capture(captureRequest()) == .disconnected)
    #expect(sensor.queuedCommands == 1)
    _ = sensor.script(script("CONNECT", "MATCH"), replace: true)
    #expect(sensor.state().connected)
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "alice"))
  }

  @Test("CONNECT appended to a disconnected sensor with an answer queued reconnects it")
  func connectBehindQueuedAnswer() async throws {
    let (sensor, _) = makeSensor(removable: true)
    _ = sensor.script(script("DISCONNECT", "MATCH"), replace: false)
    #expect(try await sensor.capture(captureRequest()) == .disconnected)
    _ = sensor.script([.connect], replace: false)
    // A disconnected sensor consumes no answers, so the CONNECT behind MATCH applies at once.
    #expect(sensor.state().connected)
    #expect(sensor.queuedCommands == 1)
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "alice"))
  }

  @Test("a CONNECT already queued behind a DISCONNECT reconnects at once; answers keep their order")
  func disconnectThenConnectInOneScript() async throws {
    let (sensor, _) = makeSensor(removable: true)
    _ = sensor.script(
      script("DISCONNECT", "NOMATCH", "ENROLL bob", "CONNECT", "MATCH bob"), replace: false)
    #expect(sensor.state().connected)
    #expect(try await sensor.capture(captureRequest()) == .noMatch)
    #expect(sensor.state().enrolled.map(\.identity) == ["alice", "bob"], "ENROLL reached the head")
    #expect(try await sensor.capture(captureRequest()) == .match(identity: "bob"))
  }

  @Test("DISCONNECT while a capture waits ends it with .disconnected")
  func disconnectWhileWaiting() async {
    let (sensor, _) = makeSensor(removable: true)
    let probe = CaptureProbe(sensor)
    await letOthersRun()
    #expect(!probe.isFinished)
    _ = sensor.script([.disconnect], replace: false)
    #expect(await probe.event() == .disconnected)
  }

  @Test("replace: true replaces the queue; replace: false appends")
  func replace() async throws {
    let (sensor, _) = makeSensor()
    #expect(sensor.script(script("NOMATCH", "NOMATCH"), replace: false) == 2)
    #expect(sensor.script([.cancel], replace: false) == 3)
    #expect(sensor.script([.fallback], replace: true) == 1)
    #expect(try await sensor.capture(captureRequest()) == .userFallback)
    #expect(sensor.queuedCommands == 0)
    #expect(sensor.script([], replace: true) == 0)
  }

  @Test("CaptureEvent wire names are stable")
  func wireNames() {
    let events: [CaptureEvent] = [
      .match(identity: "a"), .noMatch, .retry(reason: .tooFast), .userCancel, .userFallback,
      .passcode("1"),
      .disconnected,
    ]
    #expect(
      events.map(\.wireName) == [
        "match", "noMatch", "tooFast", "userCancel", "userFallback", "passcodeEntered",
        "disconnected",
      ])
  }
}
