import Foundation
import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Sensors
import Testing

/// Deferred authorization: a non-interactive client creates, an interactive one authorizes, the creator
/// redeems once; every misuse fails with its own error.
@Suite struct HandoffTests {
  private let payload: [UInt8] = Array("pay Bob 10 EUR".utf8)

  private func create(_ client: TestClient, ttl: Int = 60) async -> String? {
    await client.call(
      Method.handoffCreate, ["payload": .string(Base64.encode(payload)), "ttl": .int(ttl)])?
      .object?["handoff"]?.stringValue
  }

  private func authorize(
    _ client: TestClient, _ handoff: String, face: [ScriptCommand] = [.match(identity: nil)]
  ) async
    -> Result<JSONValue, RPCError>?
  {
    _ = client.harness.face.script(face, replace: true)
    let tag = client.harness.nextTag()
    let params: JSONObject = [
      "handoff": .string(handoff), "policy": "deviceOwnerAuthentication",
      "localizedReason": "Pay Bob?",
    ]
    if let immediate = await client.call(Method.handoffAuthorize, params, tag: tag) {
      return immediate
    }
    return await client.recorder.waitForResponse(tag: tag)
  }

  private func redeem(_ client: TestClient, _ handoff: String) async -> Result<JSONValue, RPCError>?
  {
    await client.call(Method.handoffRedeem, ["handoff": .string(handoff)])
  }

  private func pair(_ harness: BrokerHarness, uid: UInt32 = 1000) async -> (
    creator: TestClient, app: TestClient
  ) {
    let creator = await harness.connect(uid: uid, gid: uid)
    await creator.hello("com.example.intents", interactive: false)
    let app = await harness.connect(uid: uid, gid: uid)
    await app.hello("com.example.app")
    return (creator, app)
  }

  @Test func createAuthorizeRedeemExactlyOnce() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    let handoff = try #require(await create(creator))
    #expect(handoff.count == 32)
    #expect(await redeem(creator, handoff)?.reason == "notAuthorized")
    #expect(await redeem(creator, handoff)?.code == .authenticationFailed)

    let listed = try #require(
      await app.call(Method.handoffList)?.object?["handoffs"]?.arrayValue?.first?.objectValue)
    #expect(listed["handoff"] == .string(handoff))
    #expect(listed["payload"] == .string(Base64.encode(payload)))
    #expect(listed["appID"] == "com.example.intents")
    #expect(listed["authorized"] == false)
    let created = try #require(listed["createdAt"]?.doubleValue)
    let expires = try #require(listed["expiresAt"]?.doubleValue)
    #expect(abs(expires - created - 60) < 0.01)

    let authorized = await authorize(app, handoff)
    #expect(authorized?.object?["handoff"] == .string(handoff))
    #expect(authorized?.object?["state"] == "authorized")
    let told = creator.recorder.notifications(Notification.handoffStateChanged)
    #expect(told.map { $0["handoff"] } == [.string(handoff)])
    #expect(app.recorder.notifications(Notification.handoffStateChanged).isEmpty)

    #expect(await redeem(creator, handoff)?.bytes("payload") == payload)
    let again = await redeem(creator, handoff)
    #expect(again?.code == .invalidContext)
    #expect(again?.reason == "alreadyRedeemed")
    #expect(await authorize(app, handoff)?.reason == "alreadyRedeemed")
    #expect(await app.call(Method.handoffList)?.object?["handoffs"] == [])
    _ = directory
  }

  @Test func redeemedStaysRedeemedAcrossRestarts() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    let handoff = try #require(await create(creator))
    _ = await authorize(app, handoff)
    #expect(await redeem(creator, handoff)?.bytes("payload") == payload)
    let reopened = BrokerHarness(rightStore: try RightStore(directory: directory.path))
    let (later, _) = await pair(reopened)
    #expect(await redeem(later, handoff)?.reason == "alreadyRedeemed")
  }

  @Test func foreignAndUnknownIdsLookTheSame() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    let handoff = try #require(await create(creator))
    let (strangerCreator, stranger) = await pair(harness, uid: 1001)
    #expect(await stranger.call(Method.handoffList)?.object?["handoffs"] == [])
    let unknown = String(repeating: "0", count: 32)
    let foreignAuthorize = await authorize(stranger, handoff)
    let unknownAuthorize = await authorize(stranger, unknown)
    #expect(foreignAuthorize?.code == .notFound)
    #expect(foreignAuthorize?.error == unknownAuthorize?.error)
    let foreignRedeem = await redeem(strangerCreator, handoff)
    #expect(foreignRedeem?.code == .notFound)
    #expect(foreignRedeem?.error == (await redeem(strangerCreator, unknown))?.error)
    #expect(stranger.recorder.notifications(Notification.started).isEmpty)
    _ = await authorize(app, handoff)
    #expect(await redeem(strangerCreator, handoff)?.error == foreignRedeem?.error)
    #expect(await redeem(creator, handoff)?.bytes("payload") == payload)
    _ = directory
  }

  @Test func onlyTheCreatingAppRedeems() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    let handoff = try #require(await create(creator))
    _ = await authorize(app, handoff)
    #expect(await redeem(app, handoff)?.code == .notFound)
    #expect(await redeem(creator, handoff)?.bytes("payload") == payload)
    _ = directory
  }

  @Test func expiredHandoffsCannotBeAuthorizedOrRedeemed() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    // The broker's wall clock is the harness's test clock.
    let now = Date(timeIntervalSince1970: Double(harness.clock.sinceEpoch().components.seconds))
    let past = now.addingTimeInterval(-120)
    let handoff = try directory.store.createHandoff(
      uid: 1000, appID: "com.example.intents", payload: payload,
      expiresAt: past.addingTimeInterval(60), now: past)
    let authorized = await authorize(app, handoff)
    #expect(authorized?.code == .invalidContext)
    #expect(authorized?.reason == "expired")
    #expect(app.recorder.notifications(Notification.started).isEmpty)
    #expect(await redeem(creator, handoff)?.reason == "expired")
    #expect(await app.call(Method.handoffList)?.object?["handoffs"] == [])
  }

  @Test func aFailedOrNonInteractiveAuthorizationLeavesItUnauthorized() async throws {
    let (harness, directory) = try rightsHarness()
    let (creator, app) = await pair(harness)
    let handoff = try #require(await create(creator))
    #expect(await authorize(creator, handoff)?.code == .notInteractive)
    #expect(await authorize(app, handoff, face: [.cancel])?.code == .userCancel)
    #expect(await redeem(creator, handoff)?.reason == "notAuthorized")
    #expect(creator.recorder.notifications(Notification.handoffStateChanged).isEmpty)
    _ = directory
  }

  @Test func badParamsNameTheField() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let cases: [(String, JSONObject, String)] = [
      (Method.handoffCreate, ["payload": "AA==", "ttl": 0], "ttl"),
      (Method.handoffCreate, ["payload": "AA==", "ttl": 86_401], "ttl"),
      (Method.handoffCreate, ["payload": "AA=="], "ttl"),
      (Method.handoffCreate, ["payload": "%%", "ttl": 5], "payload"),
      (Method.handoffCreate, ["ttl": 5], "payload"),
      (Method.handoffAuthorize, ["handoff": "x", "localizedReason": "r"], "policy"),
      (
        Method.handoffAuthorize, ["handoff": "x", "policy": 2, "localizedReason": ""],
        "localizedReason"
      ),
      (Method.handoffAuthorize, ["policy": 2, "localizedReason": "r"], "handoff"),
      (Method.handoffRedeem, [:], "handoff"),
    ]
    for (method, params, field) in cases {
      let result = await client.call(method, params)
      #expect(result?.code == .invalidParams, "\(method) \(params)")
      #expect(result?.error?.data["field"] == .string(field), "\(method) \(params)")
    }
    #expect(await create(client, ttl: 86_400) != nil)
    _ = directory
  }
}
