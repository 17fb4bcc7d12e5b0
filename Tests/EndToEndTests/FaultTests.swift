import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Synchronization
import Testing

/// Faults against the real `localauthd`: kill -9 mid-evaluation and restart on the same socket, and
/// exactly-once answers when cancels, invalidations, inactivity, a disconnect and SIGTERM race.
@Suite(.serialized)
struct FaultTests {
  static func configuration(answer: DaemonConfig.Answer, delayMs: Int? = nil) -> DaemonConfig {
    HardeningEndToEndTests.configuration(
      ["MaxQueue": "1000", "MaxQueuePerClient": "100"], answer: answer, delayMs: delayMs)
  }

  static func evaluate(_ id: String, context: String? = nil) -> String {
    let contextMember = context.map { #","context":"\#($0)""# } ?? ""
    return
      #"{"jsonrpc":"2.0","id":"\#(id)","method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"fault"\#(contextMember)}}"#
  }

  @Test("kill -9 during evaluations, then a restart on the same socket path serves again")
  func killNineThenRestart() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration(answer: .wait))
    try daemon.start()
    defer { daemon.stop() }
    var clients: [HostileConnection] = []
    for number in 0..<3 {
      let client = try HostileConnection(path: daemon.socketPath)
      client.send(line: Self.evaluate("k\(number)"))
      let first = client.readMessage(timeout: 5)
      let live =
        first == .notification("evaluation.started") || first == .notification("evaluation.queued")
      #expect(live, "evaluation \(number) is live: \(String(describing: first))")
      clients.append(client)
    }
    daemon.signal(SIGKILL)
    #expect(daemon.waitForExit(seconds: 5))
    for client in clients {
      // What was sent before the kill (the running capture's evaluation.armed) may still be read.
      var late: [String] = []
      for _ in 0..<4 {
        guard let line = client.readLine(timeout: 5) else { break }
        late.append(String(decoding: line, as: UTF8.self))
      }
      #expect(
        client.ended && late.allSatisfy { $0.contains(#""evaluation.armed""#) },
        "a client of the killed daemon sees end of stream: \(late)")
    }
    try daemon.start()  // same path: the stale socket file must not stop it
    let client = try HostileConnection(path: daemon.socketPath)
    let script =
      #"{"jsonrpc":"2.0","id":"s","method":"sensors.script","params":{"sensor":"face","commands":["MATCH alice"]}}"#
    #expect(client.call(script, id: "s")?.result != nil, "sensors.script after restart")
    let answer = client.call(Self.evaluate("after"), id: "after")
    #expect(
      answer?.result?["sensor"]?.stringValue == "face",
      "evaluation after restart: \(String(describing: answer))")
    let canEvaluate =
      #"{"jsonrpc":"2.0","id":"c","method":"context.canEvaluatePolicy","params":{"policy":1}}"#
    #expect(client.call(canEvaluate, id: "c")?.result?["canEvaluate"] == .bool(true))
  }

  @Test(
    "Exactly once: cancels, invalidations, setActive false, a disconnect and SIGTERM race 50 evaluations",
    arguments: [1, 2, 3] as [UInt64])
  func exactlyOnceUnderARace(round: UInt64) throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(answer: .match, delayMs: 25))
    try daemon.start()
    defer { daemon.stop() }
    let seed = round &* 0x9E37_79B9 ^ UInt64(truncatingIfNeeded: HostileClock.now().bitPattern)
    var random = HostileRandom(seed: seed)
    let connections = try (0..<10).map { _ in try HostileConnection(path: daemon.socketPath) }
    let findings = HostileFindings()
    let signalDelay = Double.random(in: 0.05...1.2, using: &random)
    let daemonPID = (daemon.pid ?? 0)
    let start = HostileClock.now()
    var bodies: [@Sendable () -> Void] = connections.enumerated().map { index, client in
      let clientSeed = seed &+ UInt64(index) &+ 1
      return {
        RaceClient(index: index, client: client, seed: clientSeed, start: start, findings: findings)
          .run()
      }
    }
    bodies.append {
      usleep(UInt32(signalDelay * 1_000_000))  // the point: the signal lands mid-race
      kill(daemonPID, SIGTERM)
    }
    runOnThreads(bodies)
    #expect(daemon.waitForExit(seconds: 5), "localauthd did not exit after SIGTERM")
    let status = daemon.exitStatus
    #expect(
      status == 0, "exit status \(String(describing: status)) after SIGTERM: \(daemon.logTail)")
    #expect(
      findings.all.isEmpty,
      "seed \(seed), SIGTERM at \(signalDelay) s: \(findings.all.joined(separator: "\n"))")
    #expect(findings["evaluationsSent"] == 50)
    print("race seed \(seed), SIGTERM at \(Int(signalDelay * 1000)) ms: \(findings.summary)")
  }
}

/// One connection of the race: two contexts, five pipelined evaluations, a sync request, then random
/// cancels / invalidations / setActive false (connection 0 disconnects instead) until the daemon is gone.
struct RaceClient {
  let index: Int
  let client: HostileConnection
  let seed: UInt64
  let start: Double
  let findings: HostileFindings

  func run() {
    var random = HostileRandom(seed: seed)
    var answers: [String: Int] = [:]
    var contexts: [String] = []
    for number in 0..<2 {
      let id = "x\(index)-\(number)"
      let line = #"{"jsonrpc":"2.0","id":"\#(id)","method":"context.create","params":{}}"#
      // The daemon may be gone already.
      guard let answer = client.call(line, id: .string(id), timeout: 5) else { return }
      answers[id, default: 0] += 1
      if let context = answer.result?["context"]?.stringValue { contexts.append(context) }
    }
    var evaluations: [String] = []
    var batch = ""
    for number in 0..<5 {
      let id = "e\(index)-\(number)"
      let context = number < 2 && number < contexts.count ? contexts[number] : nil
      batch += FaultTests.evaluate(id, context: context) + "\n"
      evaluations.append(id)
    }
    let syncID = "sync\(index)"
    batch +=
      #"{"jsonrpc":"2.0","id":"\#(syncID)","method":"context.canEvaluatePolicy","params":{"policy":1}}"#
      + "\n"
    findings.count("evaluationsSent", 5)
    guard client.send(Array(batch.utf8)) else { return }
    var actions: [(at: Double, line: String, id: String?)] = []
    for number in 0..<3 {
      let at = Double.random(in: 0...1.0, using: &random)
      let id = "a\(index)-\(number)"
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        let target = evaluations.randomElement(using: &random)!
        actions.append(
          (
            at,
            #"{"jsonrpc":"2.0","id":"\#(id)","method":"evaluation.cancel","params":{"id":"\#(target)"}}"#,
            id
          ))
      case 1 where !contexts.isEmpty:
        let target = contexts.randomElement(using: &random)!
        actions.append(
          (
            at,
            #"{"jsonrpc":"2.0","id":"\#(id)","method":"context.invalidate","params":{"context":"\#(target)"}}"#,
            id
          ))
      default:
        actions.append(
          (
            at,
            #"{"jsonrpc":"2.0","id":"\#(id)","method":"session.setActive","params":{"active":false}}"#,
            id
          ))
      }
    }
    let disconnectAt = index == 0 ? Double.random(in: 0...0.8, using: &random) : nil
    actions.sort { $0.at < $1.at }
    var confirmed: Set<String> = []
    var actionsSent: [String] = []
    let deadline = start + 10 * TestTimeout.scale
    while HostileClock.now() < deadline {
      let elapsed = HostileClock.now() - start
      if let disconnectAt, elapsed >= disconnectAt {
        client.close()
        findings.count("disconnected")
        return
      }
      while let next = actions.first, next.at <= elapsed {
        actions.removeFirst()
        if client.send(line: next.line), let id = next.id { actionsSent.append(id) }
      }
      guard let message = client.readMessage(timeout: 0.005) else {
        if client.ended { break }
        continue
      }
      switch message {
      case .response(.string(let id), let object):
        answers[id, default: 0] += 1
        if id == syncID { confirmed = Set(evaluations) }
        if evaluations.contains(id), let code = object["error"]?.objectValue?["code"]?.intValue {
          findings.count("outcome\(code)")
        } else if evaluations.contains(id) {
          findings.count("outcomeSuccess")
        }
      case .response(let id, _): findings.fail("connection \(index): unexpected id \(id)")
      case .notification: break
      case .batch, .garbage: findings.fail("connection \(index): unexpected line \(message)")
      }
    }
    if !client.ended {
      findings.fail("connection \(index): still open 10 s after the start (daemon did not exit?)")
    }
    for (id, count) in answers where count > 1 {
      findings.fail("connection \(index): \(id) answered \(count) times")
    }
    for id in confirmed where answers[id] != 1 {
      findings.fail(
        "connection \(index): evaluation \(id), seen by the daemon, got \(answers[id] ?? 0) answers"
      )
    }
    findings.count("confirmedEvaluations", confirmed.count)
    findings.count(
      "unconfirmedUnanswered",
      evaluations.filter { !confirmed.contains($0) && answers[$0] == nil }.count)
    findings.count("actionsSent", actionsSent.count)
  }
}
