import Foundation
import LocalAuthClient
import LocalAuthProtocol
import Testing

@testable import LocalAuthClientCore

/// How `right.stateChanged` and `handoff.stateChanged` reach their objects, without a daemon.
@Suite struct RightStateRoutingTests {
  let connection = LocalAuthConnection(socketPath: "/nonexistent/localauthd.sock")

  func right(_ handle: String, state: LARight.State = .unknown) -> LARight {
    let right = LARight(
      handle: .string(handle), requirement: .default, state: state, connection: connection)
    connection.register(right, handle: .string(handle), generation: 1)
    return right
  }

  @Test func aNotificationUpdatesTheRightWithThatHandleOnly() {
    let (first, second) = (
      right("right-1", state: .authorized), right("right-2", state: .authorized)
    )
    #expect(
      connection.routeStateNotification(
        Notification.rightStateChanged, ["right": "right-1", "state": "notAuthorized"]))
    #expect(first.state == .notAuthorized)
    #expect(second.state == .authorized)
    #expect(
      connection.routeStateNotification(
        Notification.rightStateChanged, ["right": "right-9", "state": "authorized"]))
    #expect(!connection.routeStateNotification(Notification.monitorEvent, [:]))
  }

  @Test func theDaemonsWordWinsOverACallsGuess() {
    let right = right("right-1")
    let (version, previous) = right.beginStateChange(.authorizing)
    #expect(previous == .unknown && right.state == .authorizing)
    right.receiveState(.notAuthorized)
    right.settleState(.authorized, since: version)
    #expect(right.state == .notAuthorized)
    let (next, _) = right.beginStateChange()
    right.settleState(.authorized, since: next)
    #expect(right.state == .authorized)
  }

  @Test func aLostSocketLeavesItsRightsNotAuthorizedAndEndsHandoffStreams() async {
    let right = right("right-1", state: .authorized)
    let (stream, sink) = AsyncStream.makeStream(of: LAHandoffStateChange.self)
    _ = connection.addHandoffWatcher(sink, generation: 1)
    #expect(
      connection.routeStateNotification(
        Notification.handoffStateChanged, ["handoff": "H", "state": "authorized"]))
    connection.forgetObjects(generation: 1)
    #expect(right.state == .notAuthorized)
    var changes: [LAHandoffStateChange] = []
    for await change in stream { changes.append(change) }
    #expect(changes == [LAHandoffStateChange(handoff: "H", state: "authorized")])
  }

  @Test func keyAlgorithmsMatchTheDaemonsNames() {
    #expect(
      LAKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM.rawValue
        == KeyAlgorithm.eciesCofactor)
    #expect(LAKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA256.derivesWithX963KDF)
    #expect(!LAKeyAlgorithm.ecdhKeyExchangeCofactor.derivesWithX963KDF)
  }
}
