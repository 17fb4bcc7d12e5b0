import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Deferred authorization (docs/protocol.md, "Handoffs") through LAHandoffStore against the real
/// daemon: a non-interactive creator, an interactive authorizer, one redemption, and the misuse
/// errors.
@Suite(.serialized)
struct HandoffEndToEndTests {
  @Test func aNonInteractiveCreatorRedeemsOnceWhatAnInteractiveClientAuthorized() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    let creator = LAHandoffStore(connection: daemon.connection(interactive: false))
    let authorizer = LAHandoffStore(connection: daemon.connection())
    let payload = Data("Pay 5 EUR to Bob".utf8)

    let handoff = try await creator.create(payload: payload, ttl: 60)
    #expect(!handoff.id.isEmpty)
    #expect(handoff.expiresAt.map { $0 > Date() } == true)
    let changes = try creator.stateChanges()

    let pending = try #require(try await authorizer.list().first { $0.id == handoff.id })
    #expect(pending.payload == payload)
    #expect(pending.appID == "client-tests")
    #expect(!pending.isAuthorized)

    let cannotPrompt = await #expect(throws: LAError.self) {
      try await creator.authorize(handoff.id, localizedReason: "Siri wants to pay")
    }
    #expect(cannotPrompt?.code == .notInteractive)
    let early = await #expect(throws: LAError.self) { try await creator.redeem(handoff.id) }
    #expect(early?.code == .authenticationFailed)
    #expect(early?.reason == "notAuthorized")

    let requestID = try await authorizer.authorize(handoff.id, localizedReason: "Pay 5 EUR to Bob?")
    #expect(requestID != nil)
    var iterator = changes.makeAsyncIterator()
    let change = await iterator.next()
    #expect(change == LAHandoffStateChange(handoff: handoff.id, state: "authorized"))
    #expect(change?.isAuthorized == true)
    #expect(try await authorizer.list().first { $0.id == handoff.id }?.isAuthorized == true)

    #expect(try await creator.redeem(handoff.id) == payload)
    let reused = await #expect(throws: LAError.self) { try await creator.redeem(handoff.id) }
    #expect(reused?.code == .invalidContext)
    #expect(reused?.reason == "alreadyRedeemed")
    #expect(try await authorizer.list().contains { $0.id == handoff.id } == false)
  }

  @Test func misuseFailsWithTheDocumentedCodes() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    let store = LAHandoffStore(connection: daemon.connection())

    let unknown = await #expect(throws: RPCError.self) {
      try await store.authorize("no-such-handoff", localizedReason: "nothing")
    }
    #expect(unknown?.code == .notFound)
    let unknownRedeem = await #expect(throws: RPCError.self) {
      try await store.redeem("no-such-handoff")
    }
    #expect(unknownRedeem?.code == .notFound)
    for ttl in [0, LAHandoffStore.maximumTTL + 1] {
      let badTTL = await #expect(throws: RPCError.self) {
        try await store.create(payload: Data("x".utf8), ttl: ttl)
      }
      #expect(badTTL?.code == .invalidParams)
    }

    // Another app of the same user may authorize, but only the creating app redeems.
    let handoff = try await store.create(payload: Data("mine".utf8), ttl: 60)
    let otherApp = LocalAuthConnection(
      socketPath: daemon.socketPath, identity: ClientIdentity(name: "other-app", appID: "other-app")
    )
    defer { otherApp.disconnect() }
    let other = LAHandoffStore(connection: otherApp)
    try await other.authorize(
      handoff.id, policy: .deviceOwnerAuthenticationWithBiometrics, localizedReason: "ok")
    let foreign = await #expect(throws: RPCError.self) { try await other.redeem(handoff.id) }
    #expect(foreign?.code == .notFound)
    #expect(try await store.redeem(handoff.id) == Data("mine".utf8))

    // A cancelled prompt leaves the handoff pending.
    try await daemon.script("face", ["CANCEL"])
    let cancelled = try await store.create(payload: Data("cancel".utf8), ttl: 60)
    let userCancel = await #expect(throws: LAError.self) {
      try await store.authorize(
        cancelled.id, policy: .deviceOwnerAuthenticationWithBiometrics, localizedReason: "no")
    }
    #expect(userCancel?.code == .userCancel)
    #expect(try await store.list().first { $0.id == cancelled.id }?.isAuthorized == false)

    let expiring = try await store.create(payload: Data("soon gone".utf8), ttl: 1)
    // The sleep is the point: the one-second ttl runs out on the daemon's clock.
    try await Task.sleep(for: .milliseconds(1_300))
    let expired = await #expect(throws: LAError.self) {
      try await store.authorize(expiring.id, localizedReason: "too late")
    }
    #expect(expired?.code == .invalidContext)
    #expect(expired?.reason == "expired")
  }

  @Test func theStateStreamEndsWhenTheConnectionIsLost() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection(interactive: false)
    let changes = try LAHandoffStore(connection: connection).stateChanges()
    connection.disconnect()
    var count = 0
    for await _ in changes { count += 1 }
    #expect(count == 0)
  }
}
