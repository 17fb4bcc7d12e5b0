import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

/// Queueing, cancel, invalidate, disconnect, inactivity and shutdown: every evaluation ends exactly once.
@Suite struct LifecycleTests {
  @Test func secondContextEvaluationGetsAlreadyInProgressAndFirstIsUntouched() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let context = await client.createContext()
    let first = await client.startEvaluation(context: context)
    #expect(first.immediate == nil)
    let second = await client.startEvaluation(context: context)
    #expect(second.immediate?.code == .alreadyInProgress)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.recorder.waitForResponse(tag: first.tag)?.object?["sensor"] == "face")
  }

  @Test func cancelEndsWithAppCancelOnceAndLaterCancelIsFalse() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let (tag, _) = await client.startEvaluation()
    let requestID = await client.requestID()!
    let cancelled = await client.call(Method.cancel, ["requestID": .string(requestID)])?.object
    #expect(cancelled?["cancelled"] == true)
    let result = await client.recorder.waitForResponse(tag: tag)
    #expect(result?.code == .appCancel)
    if case .failure(let error)? = result { #expect(error.requestID == requestID) }
    let again = await client.call(Method.cancel, ["requestID": .string(requestID)])?.object
    #expect(again?["cancelled"] == false)
    #expect(client.recorder.responses(tag: tag).count == 1)
  }

  @Test func cancelByJSONRPCIdBeforeTheRequestIDIsKnown() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let (tag, _) = await client.startEvaluation()
    let cancelled = await client.call(Method.cancel, ["id": .int(tag)])?.object
    #expect(cancelled?["cancelled"] == true)
    #expect(await client.recorder.waitForResponse(tag: tag)?.code == .appCancel)
  }

  @Test func anotherClientCannotCancel() async {
    let harness = BrokerHarness()
    let owner = await harness.connect(uid: 1000, gid: 1000)
    let stranger = await harness.connect(uid: 1001, gid: 1001)
    _ = await owner.startEvaluation()
    let requestID = await owner.requestID()!
    #expect(
      await stranger.call(Method.cancel, ["requestID": .string(requestID)])?.object?["cancelled"]
        == false)
    #expect(await harness.broker.isEvaluating)
  }

  @Test func invalidateEndsRunningAndQueuedAndLaterUseIsInvalidContext() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let running = await client.createContext()
    let queued = await client.createContext()
    let first = await client.startEvaluation(context: running)
    let second = await client.startEvaluation(context: queued)
    #expect(await client.requestID(waitingFor: Notification.queued) != nil)
    _ = await client.call(Method.invalidate, ["context": .string(queued)])
    #expect(await client.recorder.waitForResponse(tag: second.tag)?.code == .appCancel)
    _ = await client.call(Method.invalidate, ["context": .string(running)])
    #expect(await client.recorder.waitForResponse(tag: first.tag)?.code == .appCancel)
    #expect(await client.call(Method.invalidate, ["context": .string(running)])?.object == [:])
    #expect(await client.evaluate(context: running)?.code == .invalidContext)
    #expect(await client.call(Method.invalidate, ["context": "ctx-nope"])?.code == .notFound)
  }

  @Test func evaluationsFromAllClientsAreSerializedInFIFOOrder() async {
    let harness = BrokerHarness()
    let a = await harness.connect()
    let b = await harness.connect()
    let c = await harness.connect()
    let first = await a.startEvaluation()
    let second = await b.startEvaluation()
    let third = await c.startEvaluation()
    #expect(b.recorder.notifications(Notification.queued).first?["position"] == 1)
    #expect(c.recorder.notifications(Notification.queued).first?["position"] == 2)
    #expect(await harness.broker.queuedCount == 2)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await a.recorder.waitForResponse(tag: first.tag)?.object != nil)
    #expect(await b.requestID() != nil)
    #expect(c.recorder.notifications(Notification.started).isEmpty)
    _ = harness.face.script([.cancel], replace: false)
    #expect(await b.recorder.waitForResponse(tag: second.tag)?.code == .userCancel)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await c.recorder.waitForResponse(tag: third.tag)?.object != nil)
  }

  @Test func disconnectDropsRunningAndQueuedAndNextStartsAtOnce() async {
    let harness = BrokerHarness()
    let leaver = await harness.connect()
    let stayer = await harness.connect()
    let dropped = await leaver.startEvaluation()
    _ = await leaver.startEvaluation()
    let waiting = await stayer.startEvaluation()
    #expect(await harness.broker.queuedCount == 2)
    await harness.broker.disconnect(leaver.session)
    #expect(await stayer.requestID() != nil)
    #expect(await harness.broker.queuedCount == 0)
    #expect(leaver.recorder.responses(tag: dropped.tag).isEmpty)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await stayer.recorder.waitForResponse(tag: waiting.tag)?.object != nil)
  }

  @Test func goingInactiveEndsTheRunningEvaluationWithSystemCancel() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let (tag, _) = await client.startEvaluation()
    #expect(await client.requestID() != nil)
    _ = await client.call(Method.setActive, ["active": false])
    #expect(await client.recorder.waitForResponse(tag: tag)?.code == .systemCancel)
  }

  @Test func shutdownAnswersQueuedAndRunningWithSystemCancel() async {
    let harness = BrokerHarness()
    let a = await harness.connect()
    let b = await harness.connect()
    let running = await a.startEvaluation()
    let queued = await b.startEvaluation()
    await harness.broker.shutdown()
    #expect(await a.recorder.waitForResponse(tag: running.tag)?.code == .systemCancel)
    #expect(await b.recorder.waitForResponse(tag: queued.tag)?.code == .systemCancel)
    #expect(await a.evaluate()?.code == .systemCancel)
  }

  @Test func preemptModeCancelsTheRunningOneLikeIOS() async {
    var configuration = BrokerConfiguration()
    configuration.overlap = .preempt
    let harness = BrokerHarness(configuration: configuration)
    let a = await harness.connect()
    let b = await harness.connect()
    let first = await a.startEvaluation()
    #expect(await a.requestID() != nil)
    let second = await b.startEvaluation()
    guard case .failure(let error)? = await a.recorder.waitForResponse(tag: first.tag) else {
      Issue.record("first not cancelled")
      return
    }
    #expect(error.code == .systemCancel)
    #expect(error.data["reason"] == "canceledByAnotherAuthentication")
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await b.recorder.waitForResponse(tag: second.tag)?.object != nil)
  }

  @Test func queueFullPerClient() async {
    var configuration = BrokerConfiguration()
    configuration.maxQueuePerClient = 2
    let harness = BrokerHarness(configuration: configuration)
    let client = await harness.connect()
    _ = await client.startEvaluation()
    _ = await client.startEvaluation()
    _ = await client.startEvaluation()
    let overflow = await client.startEvaluation()
    #expect(overflow.immediate?.code == .queueFull)
  }

  @Test func cancelRacingCompletionAnswersExactlyOnce() async {
    let harness = BrokerHarness(faceDefault: .match)
    let client = await harness.connect()
    var tags: [Int] = []
    for round in 0..<60 {
      let (tag, _) = await client.startEvaluation()
      tags.append(tag)
      if round % 3 == 0 { await Task.yield() }
      _ = await client.call(Method.cancel, ["id": .int(tag)])
    }
    for tag in tags {
      #expect(await client.recorder.waitForResponse(tag: tag) != nil)
    }
    _ = await client.evaluate()
    for tag in tags { #expect(client.recorder.responses(tag: tag).count == 1) }
  }
}
