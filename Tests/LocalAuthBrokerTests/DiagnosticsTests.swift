import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// The re-prompt, overlap and churn detectors, and the bounded traces behind `broker.trace`.
@Suite struct DiagnosticsTests {
  private func hello(_ client: TestClient, app: String) async {
    _ = await client.call(Method.hello, ["client": ["name": .string(app), "appID": .string(app)]])
  }

  private func findings(_ client: TestClient, app: String? = nil) async -> [JSONObject] {
    let params: JSONObject = app.map { ["appID": .string($0)] } ?? [:]
    let result = await client.call(Method.brokerFindings, params)?.object
    return result?["findings"]?.arrayValue?.compactMap(\.objectValue) ?? []
  }

  private func traces(_ client: TestClient, _ params: JSONObject = [:]) async -> [JSONObject] {
    let result = await client.call(Method.brokerTrace, params)?.object
    return result?["evaluations"]?.arrayValue?.compactMap(\.objectValue) ?? []
  }

  /// The founding bug: on userCancel the app resets its shared context and evaluates again.
  @Test func resettingASharedContextOnCancelIsARepromptAndChurn() async {
    let harness = BrokerHarness()
    let watcher = await harness.connect()
    _ = await watcher.call(Method.brokerMonitor)
    let app = await harness.connect()
    await hello(app, app: "com.example.shared")
    let shared = await app.createContext()
    _ = harness.face.script([.cancel], replace: false)
    let first = await app.evaluate(context: shared)
    #expect(first?.code == .userCancel)
    guard case .failure(let cancelled)? = first, let firstID = cancelled.requestID else {
      Issue.record("no requestID in \(String(describing: first))")
      return
    }
    harness.clock.advance(by: .milliseconds(40))
    _ = await app.call(Method.invalidate, ["context": .string(shared)])
    let replacement = await app.createContext()
    _ = await app.startEvaluation(context: replacement)
    let secondID = await app.requestID()
    #expect(secondID != nil && secondID != firstID)

    let found = await findings(app)
    let reprompt = found.first { $0["kind"] == "repromptAfterCancel" }
    #expect(reprompt?["earlierRequestID"]?.stringValue == firstID)
    #expect(reprompt?["laterRequestID"]?.stringValue == secondID)
    #expect(reprompt?["gapMs"] == 40)
    #expect(reprompt?["earlierOutcome"] == "userCancel")
    #expect(reprompt?["appID"] == "com.example.shared")
    let churn = found.first { $0["kind"] == "contextChurn" }
    #expect(churn?["earlierRequestID"]?.stringValue == firstID)
    #expect(churn?["laterRequestID"]?.stringValue == secondID)
    #expect(found.count == 2)

    let counts = await app.call(Method.brokerStatus)?.object?["findings"]?.objectValue
    #expect(counts?["repromptAfterCancel"] == 1)
    #expect(counts?["contextChurn"] == 1)
    #expect(counts?["overlappingPrompts"] == 0)
    let events = watcher.recorder.notifications(Notification.monitorEvent).filter {
      $0["event"] == "finding"
    }
    #expect(events.map { $0["kind"] } == ["repromptAfterCancel", "contextChurn"])
    #expect(events.first?["requestID"]?.stringValue == secondID)
  }

  /// One context per request and no evaluation on the cancel path: nothing to report, even when
  /// the user asks again later.
  @Test func oneContextPerRequestWithoutRetryOnCancelHasNoFinding() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    await hello(app, app: "com.example.good")
    let context = await app.createContext()
    _ = harness.face.script([.cancel], replace: false)
    #expect(await app.evaluate(context: context)?.code == .userCancel)
    _ = await app.call(Method.invalidate, ["context": .string(context)])
    harness.clock.advance(by: .milliseconds(2001))
    let later = await app.createContext()
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await app.evaluate(context: later)?.object?["sensor"] == "face")
    #expect(await findings(app).isEmpty)
    let counts = await app.call(Method.brokerStatus)?.object?["findings"]?.objectValue
    #expect(counts?["repromptAfterCancel"] == 0 && counts?["contextChurn"] == 0)
  }

  @Test func aSuccessFollowedByAnotherEvaluationIsNoReprompt() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    _ = harness.face.script([.match(identity: nil), .match(identity: nil)], replace: false)
    #expect(await app.evaluate()?.object?["sensor"] == "face")
    #expect(await app.evaluate()?.object?["sensor"] == "face")
    #expect(await findings(app).isEmpty)
  }

  @Test func twoPromptsAtOnceFromDifferentContextsOverlap() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    await hello(app, app: "com.example.twice")
    let other = await harness.connect()
    await hello(other, app: "com.example.other")
    _ = await other.startEvaluation(context: await other.createContext())
    _ = await app.startEvaluation(context: await app.createContext())
    harness.clock.advance(by: .milliseconds(5))
    _ = await app.startEvaluation(context: await app.createContext())
    let found = await findings(app, app: "com.example.twice")
    #expect(found.count == 1)
    #expect(found.first?["kind"] == "overlappingPrompts")
    #expect(found.first?["earlierOutcome"] == "queued")
    #expect(found.first?["gapMs"] == 5)
    #expect(await findings(app, app: "com.example.other").isEmpty)
  }

  @Test func requestsWithoutAContextQueuedBackToBackAreNoOverlap() async {
    // The README's first session: two evaluatePolicy lines in one socat, no context.
    let harness = BrokerHarness()
    let shell = await harness.connect()
    _ = await shell.startEvaluation()
    _ = await shell.startEvaluation()
    let counts = await shell.call(Method.brokerFindings)?.object?["counts"]?.objectValue
    #expect(counts?["overlappingPrompts"] == 0)
  }

  @Test func aClientOverlappingInALoopIsCountedButReportedOncePerTenSeconds() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    await hello(app, app: "com.example.loop")
    for _ in 0..<5 {
      let first = await app.startEvaluation(context: await app.createContext())
      let second = await app.startEvaluation(context: await app.createContext())
      _ = harness.face.script([.match(identity: nil), .match(identity: nil)], replace: false)
      #expect(await app.recorder.waitForResponse(tag: first.tag)?.object != nil)
      #expect(await app.recorder.waitForResponse(tag: second.tag)?.object != nil)
    }
    var result = await app.call(Method.brokerFindings)?.object
    #expect(result?["counts"]?.objectValue?["overlappingPrompts"] == 5)
    #expect(result?["findings"]?.arrayValue?.count == 1)
    #expect(result?["repeatsNotReported"] == 4)
    harness.clock.advance(by: .seconds(10))
    _ = await app.startEvaluation(context: await app.createContext())
    _ = await app.startEvaluation(context: await app.createContext())
    result = await app.call(Method.brokerFindings)?.object
    #expect(result?["counts"]?.objectValue?["overlappingPrompts"] == 6)
    #expect(result?["findings"]?.arrayValue?.count == 2)
  }

  @Test func quietAppsAndSwitchesSilenceTheDetectors() async {
    var configuration = BrokerConfiguration()
    configuration.diagnostics.quietApps = ["com.example.means-it"]
    configuration.diagnostics.overlapDetector = false
    let harness = BrokerHarness(configuration: configuration)
    let quiet = await harness.connect()
    await hello(quiet, app: "com.example.means-it")
    _ = harness.face.script([.cancel], replace: false)
    #expect(await quiet.evaluate()?.code == .userCancel)
    _ = await quiet.startEvaluation()
    let loud = await harness.connect(uid: 7)
    await hello(loud, app: "com.example.loud")
    _ = await loud.startEvaluation()
    _ = await loud.startEvaluation()
    #expect(await findings(quiet).isEmpty)
    #expect(await traces(quiet, ["appID": "com.example.means-it"]).count == 2)
  }

  @Test func repromptAfterTheWindowIsNotFlaggedAndTheWindowIsConfigurable() async {
    var configuration = BrokerConfiguration()
    configuration.diagnostics.repromptWindow = .milliseconds(500)
    let harness = BrokerHarness(configuration: configuration)
    let app = await harness.connect()
    _ = harness.face.script([.cancel, .cancel], replace: false)
    #expect(await app.evaluate()?.code == .userCancel)
    harness.clock.advance(by: .milliseconds(501))
    #expect(await app.evaluate()?.code == .userCancel)
    harness.clock.advance(by: .milliseconds(500))
    _ = await app.startEvaluation()
    let found = await findings(app)
    #expect(found.map { $0["gapMs"] } == [500])
  }

  @Test func aTraceHasQueueWaitSensorEventsFeedbackAndOutcome() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    await hello(app, app: "com.example.trace")
    let blocker = await harness.connect(uid: 9)
    let blocking = await blocker.startEvaluation()
    let (tag, _) = await app.startEvaluation()
    harness.clock.advance(by: .milliseconds(30))
    _ = harness.face.script([.match(identity: nil)], replace: false)
    _ = await blocker.recorder.waitForResponse(tag: blocking.tag)
    _ = harness.face.script(
      [.retry(reason: .faceNotCentered), .noMatch, .match(identity: nil)], replace: false)
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    let entries = await traces(app, ["appID": "com.example.trace"])
    #expect(entries.count == 1)
    let entry = entries.first
    #expect(entry?["queueWaitMs"] == 30)
    #expect(entry?["result"] == "success")
    let events = entry?["events"]?.arrayValue?.compactMap(\.objectValue) ?? []
    #expect(
      events.map { $0["kind"]?.stringValue ?? "?" } == [
        "capture", "feedback", "capture", "feedback", "capture",
      ])
    #expect(
      events.compactMap { ($0["event"] ?? $0["feedback"])?.stringValue } == [
        "faceNotCentered", "faceNotCentered", "noMatch", "noMatch", "match",
      ])
    #expect(await traces(app, ["pid": 4242]).count == 2)
    #expect(await traces(app, ["pid": 1]).isEmpty)
  }

  @Test func aTraceShowsTheFallbackToPasscodeAndWhetherThePasscodeWasRight() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: false)
    _ = harness.passcodeSensor.script([.passcode("9999"), .passcode("1234")], replace: false)
    #expect(await app.evaluate(.deviceOwnerAuthentication)?.object?["sensor"] == "passcode")
    let events = (await traces(app)).last?["events"]?.arrayValue?.compactMap(\.objectValue) ?? []
    let fallback = events.first { $0["kind"] == "fallback" }
    #expect(fallback?["sensor"] == "passcode" && fallback?["reason"] == "attemptsExhausted")
    let typed = events.filter { $0["event"] == "passcodeEntered" }
    #expect(typed.map { $0["correct"] } == [false, true])
    #expect(
      events.firstIndex { $0["kind"] == "fallback" }
        == events.firstIndex { $0["sensor"] == "passcode" })
  }

  @Test func tracesAreBoundedPerClientInTotalAndInEvents() async {
    var configuration = BrokerConfiguration()
    configuration.diagnostics.tracePerClient = 2
    configuration.diagnostics.traceTotal = 3
    configuration.diagnostics.traceEventsPerEvaluation = 2
    let harness = BrokerHarness(configuration: configuration, faceDefault: .match)
    let admin = await harness.connect()
    var lastIDs: [String] = []
    for app in ["a", "b", "c"] {
      let client = await harness.connect()
      await hello(client, app: app)
      for _ in 0..<3 {
        if case .success(let value)? = await client.evaluate() {
          lastIDs.append(value.objectValue?["requestID"]?.stringValue ?? "")
        }
      }
    }
    let kept = await traces(admin)
    #expect(kept.count == 3)
    // b keeps its newest, c its two newest (the per-client bound dropped c's first).
    #expect(lastIDs.count == 9)
    #expect(
      kept.map { $0["requestID"]?.stringValue ?? "" }
        == [5, 7, 8].map { lastIDs[min($0, lastIDs.count - 1)] })
    #expect(kept.map { $0["appID"] } == ["b", "c", "c"])
    _ = harness.face.script(
      [.retry(reason: .tooFast), .retry(reason: .tooFast), .match(identity: nil)], replace: false)
    _ = await admin.evaluate()
    let last = await traces(admin).last
    #expect(last?["events"]?.arrayValue?.count == 2)
    #expect(last?["droppedEvents"] == 3)
  }

  @Test func manyEvaluationsKeepExactlyTheNewestWithinBothBounds() async {
    var configuration = BrokerConfiguration()
    configuration.diagnostics.tracePerClient = 2
    configuration.diagnostics.traceTotal = 5
    let harness = BrokerHarness(configuration: configuration, faceDefault: .match)
    var clients: [TestClient] = []
    for app in ["a", "b", "c"] {
      let client = await harness.connect()
      await hello(client, app: app)
      clients.append(client)
    }
    var all: [String] = []
    for _ in 0..<200 {
      for client in clients {
        if case .success(let value)? = await client.evaluate() {
          all.append(value.objectValue?["requestID"]?.stringValue ?? "")
        }
      }
    }
    #expect(all.count == 600)
    let kept = await traces(clients[0]).map { $0["requestID"]?.stringValue ?? "" }
    #expect(kept == Array(all.suffix(5)))
  }

  @Test func othersSeeOnlyTheirOwnUsersFindingsAndTraces() async {
    let harness = BrokerHarness()
    let owner = await harness.connect(uid: 1000, gid: 1000)
    let stranger = await harness.connect(uid: 1001, gid: 1001)
    let admin = await harness.connect()
    _ = await owner.startEvaluation(context: await owner.createContext())
    _ = await owner.startEvaluation(context: await owner.createContext())
    #expect(await findings(owner).count == 1)
    #expect(await traces(owner).count == 2)
    #expect(await findings(stranger).isEmpty)
    #expect(await traces(stranger).isEmpty)
    #expect(await findings(admin).count == 1)
  }

  @Test func aHugeAppIDIsCutInTracesAndFindings() async {
    var configuration = BrokerConfiguration()
    configuration.maxTextBytes = 65536
    let harness = BrokerHarness(configuration: configuration)
    let app = await harness.connect()
    let huge = String(repeating: "é", count: 20_000)
    _ = await app.call(Method.hello, ["client": ["name": "big", "appID": .string(huge)]])
    _ = await app.startEvaluation(context: await app.createContext())
    _ = await app.startEvaluation(context: await app.createContext())
    let kept = await traces(app)
    #expect(kept.count == 2)
    #expect(kept.allSatisfy { ($0["appID"]?.stringValue?.utf8.count ?? 0) == 256 })
    #expect(await findings(app).first?["appID"]?.stringValue?.utf8.count == 256)
  }

  @Test func badTraceParamsAreRefused() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    #expect(await client.call(Method.brokerTrace, ["pid": "x"])?.code == .invalidParams)
    #expect(await client.call(Method.brokerTrace, ["pid": 0])?.code == .invalidParams)
    #expect(await client.call(Method.brokerFindings, ["appID": 3])?.code == .invalidParams)
  }
}
