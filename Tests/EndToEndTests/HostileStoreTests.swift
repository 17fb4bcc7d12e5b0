import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Synchronization
import Testing

/// Issue 9, the store half, against the real `localauthd`: a store flood, disk fill, NUL bytes, a slow
/// disk, an attacker-owned state directory, a deleted device key and a corrupt database. Each attack now
/// fails with an error naming the limit, while a well-behaved client (often of another uid) stays served.
@Suite(.serialized)
struct HostileStoreTests {
  /// `broker` settings, alice's face matching at once, root's passcode 1234.
  static func configuration(_ broker: KeyValuePairs<String, String> = [:]) -> DaemonConfig {
    HardeningEndToEndTests.configuration(broker, answer: .match)
  }

  static let slowDisk = "LOCALAUTHD_SIMULATE_SLOW_DISK_MS"

  /// A connected client that said hello as `app`.
  static func client(_ daemon: RunningDaemon, app: String = "com.example.app") throws -> LineClient
  {
    let client = try LineClient(socketPath: daemon.socketPath)
    try client.hello(app)
    return client
  }

  // MARK: 1. Unbounded store backlog

  @Test(
    "A pipelined store flood is refused past MaxStoreRequestsPerUID while another uid is served",
    .enabled(if: OtherUserClient.isAvailable, "needs root, setpriv and python3"))
  func storeFloodIsBounded() throws {
    let daemon = try RunningDaemon(
      arguments: [],
      config: Self.configuration(["MaxStoreRequestsPerUID": "4", "MaxStoreRequests": "8"]),
      environment: [Self.slowDisk: "50"])
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try Self.client(daemon)
    let stop = Atomic<Bool>(false)
    let tally = Mutex<(answered: Int, served: Int, busy: Int, other: [String])>((0, 0, 0, []))
    let otherAnswers = Mutex<[JSONObject]>([])
    let socket = daemon.socketPath
    let flood: @Sendable () -> Void = {
      defer { stop.store(true, ordering: .relaxed) }
      while !stop.load(ordering: .relaxed) {
        guard var ids = try? Set((0..<100).map({ _ in try attacker.request(Method.handoffList) }))
        else { return }
        while !ids.isEmpty {
          guard let value = try? attacker.readMessage(seconds: 30),
            case .response(let id, let result)? = ServerMessage(json: value)
          else { return }
          ids.remove(id)
          tally.withLock { tally in
            tally.answered += 1
            switch result {
            case .success: tally.served += 1
            case .failure(let error)
            where error.code == .queueFull && error.data["reason"] == "storeBusy"
              && error.data["limit"] == "MaxStoreRequestsPerUID":
              tally.busy += 1
            case .failure(let error): tally.other.append("\(error.code) \(error.message)")
            }
          }
        }
      }
    }
    let otherUser: @Sendable () -> Void = {
      defer { stop.store(true, ordering: .relaxed) }  // ends the flood once the other uid is done
      // Let the flood reach its limit first.
      while tally.withLock({ $0.busy }) < 50 && !stop.load(ordering: .relaxed) { usleep(1000) }
      let answers = try? OtherUserClient.run(
        socket: socket,
        [
          (Method.hello, ["client": ["name": "other", "interactive": false]]),
          (Method.handoffCreate, ["payload": "AA==", "ttl": 60]),
          (Method.handoffList, [:]),
        ])
      otherAnswers.withLock { $0 = answers ?? [] }
    }
    runOnThreads([flood, otherUser])
    let (answered, served, busy, other) = tally.withLock { $0 }
    #expect(other.isEmpty, "unexpected errors: \(other.prefix(3))")
    #expect(busy >= 50, "the flood was refused as storeBusy (\(busy) of \(answered))")
    #expect(served >= 4, "the flood's admitted requests were served (\(served))")
    let answers = otherAnswers.withLock { $0 }
    #expect(answers.count == 3, "the other uid got all its answers: \(answers)")
    for answer in answers {
      #expect(answer["result"] != nil, "the other uid was served: \(answer)")
    }
    let listed = answers.last?["result"]?.objectValue?["handoffs"]?.arrayValue
    #expect(listed?.count == 1, "the other uid sees its own handoff")
    let status = try attacker.ok(Method.brokerStatus)
    #expect(status["storeRequests"] == .int(0), "the backlog drained: \(status)")
    // Before the limit, the same flood grew the daemon by gigabytes within seconds.
    let resident = daemon.residentKiB() ?? 0
    #expect(resident < 256 * 1024, "resident set after the flood: \(resident) KiB")
    #expect(daemon.isRunning)
  }

  // MARK: 4. Disk fill

  @Test(
    "Handoff and saved-right limits refuse with the limit named; short ttls do not multiply them")
  func diskFillLimits() throws {
    let daemon = try RunningDaemon(
      arguments: [],
      config: Self.configuration([
        "MaxHandoffsPerUID": "5", "MaxHandoffPayloadBytes": "1024", "MinHandoffTTLSec": "2",
        "MaxHandoffTTLSec": "600", "MaxSavedRightsPerUID": "2", "MaxSecretBytes": "64",
      ]))
    try daemon.start()
    defer { daemon.stop() }
    let client = try Self.client(daemon)
    let big = Base64.encode([UInt8](repeating: 0x41, count: 1025))
    let refusals: [(JSONObject, String)] = [
      (["payload": .string(big), "ttl": 60], "MaxHandoffPayloadBytes"),
      (["payload": "AA==", "ttl": 1], "MinHandoffTTLSec"),
      (["payload": "AA==", "ttl": 601], "MaxHandoffTTLSec"),
    ]
    for (params, limit) in refusals {
      let error = try client.failure(Method.handoffCreate, params)
      #expect(error.code == .invalidParams && error.data["limit"] == .string(limit), "\(error)")
    }
    let full = Base64.encode([UInt8](repeating: 0x42, count: 1024))
    for _ in 0..<5 { try client.ok(Method.handoffCreate, ["payload": .string(full), "ttl": 2]) }
    let tooMany = try client.failure(Method.handoffCreate, ["payload": "AA==", "ttl": 60])
    #expect(tooMany.code == .limitExceeded, "\(tooMany)")
    #expect(
      tooMany.data["reason"] == "tooManyHandoffs" && tooMany.data["limit"] == "MaxHandoffsPerUID")
    usleep(2_500_000)  // the five have expired: still counted, so a short ttl gains nothing
    let afterExpiry = try client.failure(Method.handoffCreate, ["payload": "AA==", "ttl": 60])
    #expect(afterExpiry.data["limit"] == "MaxHandoffsPerUID", "\(afterExpiry)")
    #expect(try client.ok(Method.handoffList)["handoffs"]?.arrayValue?.isEmpty == true)

    let right = try client.authorizedRight()
    let secret = try client.failure(
      Method.rightStoreSave,
      [
        "right": .string(right), "identifier": "big",
        "secret": .string(Base64.encode([UInt8](repeating: 1, count: 65))),
      ])
    #expect(secret.code == .invalidParams && secret.data["limit"] == "MaxSecretBytes", "\(secret)")
    for identifier in ["one", "two"] {
      try client.ok(
        Method.rightStoreSave,
        ["right": .string(right), "identifier": .string(identifier), "secret": "AAAA"])
    }
    let third = try client.failure(
      Method.rightStoreSave, ["right": .string(right), "identifier": "three"])
    #expect(
      third.code == .limitExceeded && third.data["limit"] == "MaxSavedRightsPerUID", "\(third)")
    #expect(third.data["reason"] == "tooManySavedRights")
    if OtherUserClient.isAvailable {
      let answers = try OtherUserClient.run(
        socket: daemon.socketPath,
        [
          (Method.hello, ["client": ["name": "other", "interactive": false]]),
          (Method.handoffCreate, ["payload": "AA==", "ttl": 60]),
        ])
      #expect(answers.last?["result"]?.objectValue?["handoff"] != nil, "\(answers)")
    }
  }

  // MARK: 9. NUL bytes

  @Test(
    "NUL bytes in app ids, identifiers and handoff ids are refused; the uid's handoffs stay usable")
  func nulBytesAreRefused() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration())
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try LineClient(socketPath: daemon.socketPath)
    let appID = try attacker.failure(
      Method.hello, ["client": ["name": "x", "appID": "com.example\u{0}.wallet"], "protocol": 1])
    #expect(appID.code == .invalidParams && appID.data["field"] == "client.appID", "\(appID)")
    let name = try attacker.failure(Method.hello, ["client": ["name": "wallet\u{0}"]])
    #expect(name.code == .invalidParams && name.data["field"] == "client.name", "\(name)")
    try attacker.hello("com.example.wallet")
    let right = try attacker.authorizedRight()
    let cases: [(String, JSONObject, String)] = [
      (Method.rightStoreSave, ["right": .string(right), "identifier": "bank\u{0}x"], "identifier"),
      (Method.rightStoreRight, ["identifier": "bank\u{0}"], "identifier"),
      (Method.rightStoreRemove, ["identifier": "\u{0}"], "identifier"),
      (Method.handoffRedeem, ["handoff": "abc\u{0}"], "handoff"),
    ]
    for (method, params, field) in cases {
      let error = try attacker.failure(method, params)
      #expect(
        error.code == .invalidParams && error.data["field"] == .string(field),
        "\(method): \(error)")
    }
    // The well-behaved flow of the same uid and app: create, list, authorize, redeem.
    let handoff = try #require(
      try attacker.ok(Method.handoffCreate, ["payload": "AAEA", "ttl": 60])["handoff"]?.stringValue)
    let app = try Self.client(daemon, app: "com.example.wallet-app")
    let listed = try app.ok(Method.handoffList)["handoffs"]?.arrayValue ?? []
    #expect(listed.count == 1 && listed.first?.objectValue?["appID"] == "com.example.wallet")
    try app.ok(
      Method.handoffAuthorize,
      ["handoff": .string(handoff), "policy": 1, "localizedReason": "pay"])
    let redeemed = try attacker.ok(Method.handoffRedeem, ["handoff": .string(handoff)])
    #expect(redeemed["payload"] == "AAEA")
    try attacker.ok(Method.rightStoreSave, ["right": .string(right), "identifier": "bank"])
    #expect(try attacker.ok(Method.rightStoreRight, ["identifier": "bank"])["right"] != nil)
  }

  // MARK: 10. Store I/O on the event loop

  @Test("On a slow disk the loop answers broker.status before any pipelined store call is done")
  func loopNeverWaitsOnTheStore() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(), environment: [Self.slowDisk: "400"])
    try daemon.start()
    defer { daemon.stop() }
    let client = try Self.client(daemon)
    let plain = try client.authorizedRight()
    let saved = try client.ok(
      Method.rightStoreSave, ["right": .string(plain), "identifier": "bank", "secret": "c2Vj"])
    let right = try #require(saved["right"]?.stringValue)
    let x963 = try #require(
      try client.ok(Method.keyPublicKey, ["right": .string(right)])["x963"]?.stringValue)
    let handoff = try #require(
      try client.ok(Method.handoffCreate, ["payload": "AA==", "ttl": 60])["handoff"]?.stringValue)
    // Every method that touches the database, each of which holds it 400 ms on this disk.
    let storeCalls: [(String, JSONObject)] = [
      (Method.rightStoreRight, ["identifier": "bank"]),
      (Method.keySign, ["right": .string(right), "data": "AA=="]),
      (Method.keyDecrypt, ["right": .string(right), "data": "AAAA"]),
      (Method.keyExchangeKeys, ["right": .string(right), "publicKey": .string(x963)]),
      (Method.secretLoad, ["right": .string(right)]),
      (Method.handoffCreate, ["payload": "AA==", "ttl": 60]),
      (Method.handoffList, [:]),
      (
        Method.handoffAuthorize, ["handoff": .string(handoff), "policy": 1, "localizedReason": "r"]
      ),
      (Method.handoffRedeem, ["handoff": .string(handoff)]),
      (Method.rightStoreRemove, ["identifier": "nothing"]),
    ]
    var pending = Set<RequestID>()
    for (method, params) in storeCalls { pending.insert(try client.request(method, params)) }
    let status = try client.request(Method.brokerStatus)
    var first: RequestID?
    var storeBusyAtStatus: JSONValue?
    while !pending.isEmpty {
      guard let value = try client.readMessage(seconds: 30),
        let message = ServerMessage(json: value)
      else {
        Issue.record("no answer for \(pending.count) store calls")
        break
      }
      guard case .response(let id, let result) = message else { continue }
      if first == nil { first = id }
      if id == status {
        storeBusyAtStatus = try? result.get().objectValue?["storeRequests"]
      } else {
        pending.remove(id)
      }
    }
    #expect(first == status, "broker.status was answered after a store call: the loop waited")
    #expect(
      (storeBusyAtStatus?.intValue ?? 0) > 0,
      "the store was still busy when status answered: \(String(describing: storeBusyAtStatus))")
    #expect(daemon.isRunning)
  }

  // MARK: 11. State directory, device key, corrupt database

  @Test("A state directory that others can write, or that another user owns, stops the start")
  func unsafeStateDirectoryIsRefused() throws {
    for (mode, owner, expected) in [
      (0o777, nil, "writable by group or others"), (0o700, 65534, "owned by uid 65534"),
    ] as [(Int, UInt32?, String)] {
      if owner != nil && geteuid() != 0 { continue }
      let daemon = try RunningDaemon(arguments: [], config: Self.configuration())
      #expect(chmod(daemon.stateDirectory, mode_t(mode)) == 0)
      if let owner { #expect(chown(daemon.stateDirectory, owner, owner) == 0) }
      #expect(throws: (any Error).self) { try daemon.start() }
      #expect(daemon.waitForExit(seconds: 10))
      #expect(daemon.exitStatus != 0)
      #expect(daemon.logTail.contains(expected), "\(daemon.logTail)")
      #expect(!FileManager.default.fileExists(atPath: daemon.stateDirectory + "/device.key"))
    }
  }

  @Test(
    "A deleted device key or a corrupt database leaves rights unavailable, explained, while evaluations go on",
    arguments: ["deleted device key", "corrupt database"])
  func brokenStoreDegrades(damage: String) throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration())
    try daemon.start()
    let setup = try Self.client(daemon)
    try setup.ok(
      Method.rightStoreSave, ["right": .string(try setup.authorizedRight()), "identifier": "bank"])
    setup.close()
    daemon.stop()
    let keyPath = daemon.stateDirectory + "/device.key"
    if damage == "deleted device key" {
      try FileManager.default.removeItem(atPath: keyPath)
    } else {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(
          atPath: daemon.stateDirectory + "/rights.sqlite3" + suffix)
      }
      let garbage = Data((0..<16384).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 3) })
      #expect(
        FileManager.default.createFile(
          atPath: daemon.stateDirectory + "/rights.sqlite3", contents: garbage))
    }
    try daemon.start()
    defer { daemon.stop() }
    let client = try Self.client(daemon)
    let evaluation = try client.ok(
      Method.evaluatePolicy, ["policy": 1, "localizedReason": "still works"])
    #expect(evaluation["sensor"] == "face", "\(evaluation)")
    let storeCalls: [(String, JSONObject)] = [
      (Method.rightStoreRight, ["identifier": "bank"]),
      (Method.handoffCreate, ["payload": "AA==", "ttl": 60]),
      (Method.handoffList, [:]),
    ]
    for (method, params) in storeCalls {
      let error = try client.failure(method, params)
      #expect(error.data["reason"] == "rightsUnavailable", "\(method): \(error)")
      let explained =
        damage == "deleted device key"
        ? error.message.contains("device.key is missing")
        : error.message.contains("corrupt")
          || error.message.contains("not a database")
      #expect(explained, "\(method): \(error.message)")
    }
    #expect(daemon.logTail.contains("rights unavailable"), "\(daemon.logTail)")
    if damage == "deleted device key" {
      #expect(!FileManager.default.fileExists(atPath: keyPath), "the key was silently replaced")
    }
  }
}
