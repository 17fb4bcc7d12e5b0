import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Crash consistency of the rights store and deferred authorization against the real daemon.
@Suite(
  .serialized, .enabled(if: (try? RunningDaemon.binaryPath()) != nil, "localauthd binary not found")
)
struct RightsDurabilityEndToEndTests {
  private func started() throws -> RunningDaemon {
    let daemon = try RunningDaemon(arguments: ["--demo"])
    try daemon.start()
    return daemon
  }

  @Test func killDashNineDuringManySavesLeavesAConsistentStore() throws {
    let daemon = try started()
    let client = try daemon.connect()
    try client.hello("com.example.crash")
    let right = try client.authorizedRight()
    let total = 3000
    let identifiers = (0..<total).map { "item-\($0)" }
    // Requests go out from another thread so neither side can block the other on full socket buffers.
    let lines = identifiers.enumerated().map { index, identifier in
      let params: JSONObject = [
        "right": .string(right), "identifier": .string(identifier), "secret": "AAECAw==",
      ]
      let request = RPCRequest(
        method: Method.rightStoreSave, params: params, id: .int(10_000 + index))
      return JSONWriter.encode(request.json) + [0x0A]
    }
    let sender = Thread {
      for line in lines { guard (try? client.send(raw: line)) != nil else { return } }
    }
    sender.start()
    // The daemon admits 16 saves at a time (MaxStoreRequestsPerUID) and refuses the rest of the
    // burst with storeBusy, so only those 16 are sure to be acknowledged: how many more are
    // depends on how far the store gets while the loop reads the burst.
    let sure = 16
    var acknowledged: [String] = []
    while acknowledged.count < sure, let value = try client.readMessage() {
      if case .response(.number(let number), .success)? = ServerMessage(json: value),
        let id = number.intValue,
        (10_000..<10_000 + total).contains(id)
      {
        acknowledged.append(identifiers[id - 10_000])
      }
    }
    #expect(daemon.stop(signal: SIGKILL) == -SIGKILL)
    #expect(acknowledged.count == sure)

    let database = daemon.stateDirectory + "/rights.sqlite3"
    if access("/usr/bin/sqlite3", X_OK) == 0 {
      let check = try runCapturing("/usr/bin/sqlite3", [database, "PRAGMA integrity_check;"])
      #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
      let rows = try runCapturing("/usr/bin/sqlite3", [database, "SELECT identifier FROM rights;"])
      let stored = Set(rows.output.split(separator: "\n").map(String.init))
      #expect(stored.isSuperset(of: acknowledged))
      #expect(stored.isSubset(of: Set(identifiers)))
    }

    try daemon.start()
    let after = try daemon.connect()
    try after.hello("com.example.crash")
    for identifier in acknowledged {
      let loaded = try after.ok(Method.rightStoreRight, ["identifier": .string(identifier)])
      #expect(loaded["identifier"] == .string(identifier))
    }
    let handle = try #require(
      try after.ok(Method.rightStoreRight, ["identifier": .string(acknowledged[0])])["right"])
    try after.matchNow()
    try after.ok(Method.rightAuthorize, ["right": handle, "localizedReason": "after the crash"])
    #expect(try after.ok(Method.secretLoad, ["right": handle])["secret"] == "AAECAw==")
    let fresh = try after.authorizedRight()
    #expect(
      try after.ok(Method.rightStoreSave, ["right": .string(fresh), "identifier": "after"])[
        "identifier"] == "after")
  }

  @Test func handoffIsAuthorizedByAnInteractiveClientAndRedeemedOnce() throws {
    let daemon = try started()
    let creator = try daemon.connect()
    try creator.hello("com.example.intents", interactive: false)
    let payload = Base64.encode(Array(#"{"pay":"Bob","amount":10}"#.utf8))
    let created = try creator.ok(Method.handoffCreate, ["payload": .string(payload), "ttl": 300])
    let handoff = try #require(created["handoff"])
    let early = try creator.failure(Method.handoffRedeem, ["handoff": handoff])
    #expect(early.code == .authenticationFailed)
    #expect(early.data["reason"] == "notAuthorized")
    let selfAuthorize = try creator.failure(
      Method.handoffAuthorize,
      ["handoff": handoff, "policy": "deviceOwnerAuthentication", "localizedReason": "Pay Bob?"])
    #expect(selfAuthorize.code == .notInteractive)

    let app = try daemon.connect()
    try app.hello("com.example.app")
    let listed = try #require(
      try app.ok(Method.handoffList)["handoffs"]?.arrayValue?.first?.objectValue)
    #expect(listed["handoff"] == handoff)
    #expect(listed["payload"] == .string(payload))
    #expect(listed["appID"] == "com.example.intents")
    try app.matchNow()
    let authorized = try app.ok(
      Method.handoffAuthorize,
      ["handoff": handoff, "policy": "deviceOwnerAuthentication", "localizedReason": "Pay Bob?"])
    #expect(authorized["state"] == "authorized")
    #expect(try creator.notification(Notification.handoffStateChanged)?["handoff"] == handoff)

    #expect(
      try creator.ok(Method.handoffRedeem, ["handoff": handoff])["payload"] == .string(payload))
    let reused = try creator.failure(Method.handoffRedeem, ["handoff": handoff])
    #expect(reused.code == .invalidContext)
    #expect(reused.data["reason"] == "alreadyRedeemed")
    creator.close()

    #expect(daemon.stop(signal: SIGTERM) == 0)
    try daemon.start()
    let later = try daemon.connect()
    try later.hello("com.example.intents", interactive: false)
    #expect(
      try later.failure(Method.handoffRedeem, ["handoff": handoff]).data["reason"]
        == "alreadyRedeemed")
    let unknown = try later.failure(
      Method.handoffRedeem, ["handoff": .string(String(repeating: "f", count: 32))])
    #expect(unknown.code == .notFound)
    #expect(
      try later.failure(Method.handoffCreate, ["payload": "AA==", "ttl": 0]).data["field"] == "ttl")
    #expect(
      try later.failure(Method.handoffCreate, ["payload": "AA==", "ttl": 86_401]).data["field"]
        == "ttl")
    #expect(
      try later.failure(Method.handoffCreate, ["payload": "***", "ttl": 10]).data["field"]
        == "payload")
  }

  @Test func anExpiredHandoffCanNeitherBeAuthorizedNorRedeemed() throws {
    let daemon = try started()
    let creator = try daemon.connect()
    try creator.hello("com.example.intents", interactive: false)
    let handoff = try #require(
      try creator.ok(Method.handoffCreate, ["payload": "AA==", "ttl": 1])["handoff"])
    usleep(1_200_000)  // the sleep is the point: the one-second ttl runs out on the daemon's clock
    let app = try daemon.connect()
    try app.hello("com.example.app")
    #expect(try app.ok(Method.handoffList)["handoffs"] == [])
    let authorize = try app.failure(
      Method.handoffAuthorize, ["handoff": handoff, "policy": 2, "localizedReason": "too late"])
    #expect(authorize.code == .invalidContext)
    #expect(authorize.data["reason"] == "expired")
    #expect(
      try creator.failure(Method.handoffRedeem, ["handoff": handoff]).data["reason"] == "expired")
  }
}
