import LocalAuthProtocol
import Sensors
import Testing

@testable import LocalAuthBroker

/// right.create / authorize / checkCanAuthorize / deauthorize / state and right.stateChanged.
@Suite struct RightsLifecycleTests {
  static let shapes: [(JSONObject, Policy)] = [
    (["requirement": "default"], .deviceOwnerAuthentication),
    (["requirement": "biometry"], .deviceOwnerAuthenticationWithBiometrics),
    (["requirement": "biometry", "fallback": "none"], .deviceOwnerAuthenticationWithBiometrics),
    (["requirement": "biometry", "fallback": "devicePasscode"], .deviceOwnerAuthentication),
    (["requirement": ["biometry": ["fallback": "devicePasscode"]]], .deviceOwnerAuthentication),
    (
      ["requirement": ["name": "biometry", "fallback": "devicePasscode"]],
      .deviceOwnerAuthentication
    ),
    (["requirement": ["biometry": [:]]], .deviceOwnerAuthenticationWithBiometrics),
    (["requirement": "biometryCurrentSet"], .deviceOwnerAuthenticationWithBiometrics),
  ]

  @Test(arguments: shapes)
  func everyRequirementShapeMapsToItsPolicy(params: JSONObject, policy: Policy) async throws {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = try #require(
      await client.call(Method.rightCreate, params)?.object?["right"]?.stringValue)
    #expect(right.hasPrefix("right-"))
    #expect(await client.authorize(right)?.object?["state"] == "authorized")
    #expect(client.recorder.notifications(Notification.started).last?["policy"] == policy.json)
  }

  @Test(
    arguments: [
      [:], ["requirement": "bogus"], ["requirement": 3],
      ["requirement": "default", "fallback": "devicePasscode"],
      ["requirement": "biometry", "fallback": "watch"], ["requirement": ["biometry": "x"]],
    ] as [JSONObject])
  func badRequirementsAreInvalidParams(params: JSONObject) async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let result = await client.call(Method.rightCreate, params)
    #expect(result?.code == .invalidParams)
    #expect(result?.error?.data["field"] != nil)
  }

  @Test func authorizeNotifiesAndStaysAuthorizedWithoutAnotherPrompt() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    #expect(await client.state(right) == "unknown")
    let result = await client.authorize(right)
    #expect(result?.object?["sensor"] == "face")
    #expect(result?.object?["requestID"]?.stringValue != nil)
    #expect(await client.state(right) == "authorized")
    #expect(client.stateChanges(right) == ["authorizing", "authorized"])
    let started = client.recorder.notifications(Notification.started).count
    let again = await client.call(
      Method.rightAuthorize, ["right": .string(right), "localizedReason": "again"])
    #expect(again?.object?["state"] == "authorized")
    #expect(client.recorder.notifications(Notification.started).count == started)
  }

  @Test func failedAuthorizationLeavesNotAuthorized() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight("biometry")
    #expect(await client.authorize(right, face: [.cancel])?.code == .userCancel)
    #expect(await client.state(right) == "notAuthorized")
    #expect(client.stateChanges(right) == ["authorizing", "notAuthorized"])
  }

  @Test func emptyReasonAndUnknownHandleAreRejected() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    let empty = await client.call(
      Method.rightAuthorize, ["right": .string(right), "localizedReason": ""])
    #expect(empty?.code == .invalidParams)
    #expect(await client.state(right) == "unknown")
    for method in [
      Method.rightAuthorize, Method.rightState, Method.rightDeauthorize,
      Method.rightCheckCanAuthorize,
    ] {
      let result = await client.call(method, ["right": "right-nope", "localizedReason": "x"])
      #expect(result?.code == .notFound, "\(method)")
    }
  }

  @Test func anotherClientsHandleLooksLikeAMissingOne() async {
    let harness = BrokerHarness()
    let owner = await harness.connect(uid: 1000, gid: 1000)
    let other = await harness.connect(uid: 1000, gid: 1000)
    let right = await owner.createRight()
    let foreign = await other.call(Method.rightState, ["right": .string(right)])
    #expect(foreign?.code == .notFound)
    #expect(foreign?.error?.message == "No such right: \(right).")
  }

  @Test func secondAuthorizeWhileAuthorizingIsAlreadyInProgress() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    let first = await client.startAuthorize(right)
    #expect(first.immediate == nil)
    #expect(await client.state(right) == "authorizing")
    #expect(await client.startAuthorize(right).immediate?.code == .alreadyInProgress)
    _ = harness.face.script([.match(identity: nil)], replace: false)
    #expect(await client.recorder.waitForResponse(tag: first.tag)?.object?["state"] == "authorized")
  }

  @Test func deauthorizeDuringAuthorizationCancelsItOnce() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    let pending = await client.startAuthorize(right)
    _ = await client.requestID()
    #expect(await client.call(Method.rightDeauthorize, ["right": .string(right)])?.object == [:])
    let answer = await client.recorder.waitForResponse(tag: pending.tag)
    #expect(answer?.code == .appCancel)
    #expect(answer?.reason == "deauthorized")
    #expect(client.recorder.responses(tag: pending.tag).count == 1)
    #expect(await client.state(right) == "notAuthorized")
    #expect(await !harness.broker.isEvaluating)
  }

  @Test func deauthorizeIsIdempotentAndNotifiesOnce() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    await client.authorize(right)
    _ = await client.call(Method.rightDeauthorize, ["right": .string(right)])
    _ = await client.call(Method.rightDeauthorize, ["right": .string(right)])
    #expect(client.stateChanges(right) == ["authorizing", "authorized", "notAuthorized"])
  }

  @Test func checkCanAuthorizeNeverPrompts() async {
    let harness = BrokerHarness(enrolled: [])
    let client = await harness.connect()
    let biometry = await client.createRight("biometry")
    let fallback = await client.createRight("biometry", fallback: "devicePasscode")
    let biometryCheck = await client.call(
      Method.rightCheckCanAuthorize, ["right": .string(biometry)])
    #expect(biometryCheck?.code == .biometryNotEnrolled)
    #expect(biometryCheck?.error?.data["name"] == "biometryNotEnrolled")
    #expect(
      await client.call(Method.rightCheckCanAuthorize, ["right": .string(fallback)])?.object == [:])
    #expect(client.recorder.notifications(Notification.started).isEmpty)
    #expect(await client.state(biometry) == "unknown")
  }

  @Test func nonInteractiveClientGetsNotInteractive() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    await client.hello("extension", interactive: false)
    let right = await client.createRight()
    #expect(await client.authorize(right)?.code == .notInteractive)
    #expect(await client.state(right) == "notAuthorized")
  }

  @Test func disconnectDeauthorizesAndDropsEveryRight() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let authorized = await client.createRight()
    await client.authorize(authorized)
    let pendingRight = await client.createRight()
    let pending = await client.startAuthorize(pendingRight)
    _ = await client.requestID()
    let (held, left) = await Self.disconnect(client.session, from: harness.broker)
    #expect(held.count == 2)
    #expect(held.allSatisfy { $0.state == RightStateName.notAuthorized && $0.authorizing == nil })
    #expect(left == 0)
    #expect(client.recorder.responses(tag: pending.tag).isEmpty)
    #expect(await !harness.broker.isEvaluating)
  }

  /// Disconnects the client on the broker's executor: the states of the rights it held, read after
  /// the disconnection, and how many the rights book still holds for it.
  private static func disconnect(_ session: ClientSession, from broker: isolated Broker) -> (
    [(state: String, authorizing: String?)], Int
  ) {
    let held = broker.rights.rights(of: session.number)
    broker.disconnect(session)
    return (held.map { ($0.state, $0.authorizing) }, broker.rights.count(of: session.number))
  }

  /// A store call answered after its client left (here: asked after it left, the same code path
  /// as an answer arriving after the disconnection) leaves no handle behind in the rights book: a
  /// client that loads and disconnects over and over makes the daemon hold nothing.
  @Test func aRightLoadedForAClientThatLeftIsNotKept() async throws {
    let (harness, directory) = try rightsHarness()
    let saver = await harness.connect()
    _ = await saver.savedRight("kept")
    let leaving = await harness.connect()
    await leaving.disconnect()
    let loaded = await leaving.load("kept")
    // The store found the right (the answer went nowhere): the handle was the one to refuse.
    #expect(loaded?.object?["right"] != nil, "\(String(describing: loaded))")
    #expect(await Self.heldRights(of: leaving.session, in: harness.broker) == 0)
    _ = directory
  }

  /// How many right handles the rights book holds for `session` (on the broker's executor).
  private static func heldRights(of session: ClientSession, in broker: isolated Broker) -> Int {
    broker.rights.count(of: session.number)
  }

  @Test func releaseForgetsTheHandle() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    #expect(await client.call(Method.rightRelease, ["right": .string(right)])?.object == [:])
    #expect(await client.state(right) == nil)
  }
}
