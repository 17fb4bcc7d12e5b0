import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

@testable import LocalAuthBroker

/// `evaluation.armed` (issue 28, row 6): the client hears that the sensor listens only once the
/// driver has armed the capture, so a prompt that waits for it never asks for a touch that would
/// be lost.
@Suite struct ArmedNotificationTests {
  /// A sensor that listens at once (simulated, exec) is armed when the broker asks for the
  /// capture: after `evaluation.started`, before any outcome.
  @Test func aSensorThatListensAtOnceIsArmedWhenItsCaptureIsAskedFor() async {
    let harness = BrokerHarness()
    let app = await harness.connect()
    let (tag, immediate) = await app.startEvaluation()
    #expect(immediate == nil)
    let requestID = await app.requestID(waitingFor: Notification.armed)
    #expect(requestID != nil)
    let armed = app.recorder.notifications(Notification.armed)
    #expect(armed.first?["sensor"] == "face" && armed.first?["attempt"] == 1)
    _ = harness.face.script([.noMatch, .match(identity: nil)], replace: false)
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    // One per capture: the try after the no-match was armed again.
    #expect(app.recorder.notifications(Notification.armed).map { $0["attempt"] } == [1, 2])
  }

  /// A driver that reports its arming (fprintd's) is not announced as listening until it says so;
  /// a report for an evaluation that ended is dropped. Control: its report is announced at once.
  @Test func aDriverThatReportsArmingIsAnnouncedOnlyWhenItHasArmed() async {
    let harness = BrokerHarness(faceReportsArming: true)
    guard let arming = harness.arming else { return }
    let app = await harness.connect()
    let (tag, _) = await app.startEvaluation()
    #expect(await app.requestID(waitingFor: Notification.started) != nil)
    #expect(await eventually(pace: .yielding) { arming.waitingToBeArmed == 1 })
    #expect(app.recorder.notifications(Notification.armed).isEmpty, "announced before it armed")
    #expect(arming.arm() == 1)
    #expect(await app.requestID(waitingFor: Notification.armed) != nil)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await app.recorder.waitForResponse(tag: tag)?.object?["sensor"] == "face")
    // A capture cancelled before fprintd answered VerifyStart: its late report is dropped.
    let (second, _) = await app.startEvaluation()
    #expect(await eventually(pace: .yielding) { arming.waitingToBeArmed == 1 })
    let requestID = app.recorder.notifications(Notification.started).last?["requestID"]
    _ = await app.call(Method.cancel, ["requestID": requestID ?? .null])
    #expect(await app.recorder.waitForResponse(tag: second)?.code == .appCancel)
    arming.arm()
    _ = await app.call(Method.brokerStatus)
    #expect(app.recorder.notifications(Notification.armed).count == 1)
  }
}
