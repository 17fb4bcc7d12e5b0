import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// What a flood costs everyone else, against the real daemon: a flood of evaluations that end at
/// once costs the log at most `AtOnceLogBudget.perSecond` lines a second per uid, and store work
/// runs below the event loop. Each flood is still answered in full, with its errors.
@Suite(.serialized)
struct FloodCostEndToEndTests {
  /// Another user's evaluations that end at once: refused when they are evaluated (nothing is
  /// enrolled for nobody; ` finished: ` lines) or before (an unknown context; ` refused: ` lines).
  /// Each is answered with its error; past the budget they are counted in one entry. Needs root.
  @Test(
    "A flood of evaluations refused at once is answered in full and logged within a budget",
    .enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"),
    arguments: [
      (#"{"policy":1,"localizedReason":"flood"}"#, " finished: "),
      (#"{"policy":1,"localizedReason":"flood","context":"no-such-context"}"#, " refused: "),
    ])
  func refusedEvaluationsAreCountedPastTheLogBudget(params: String, ownLine: String) throws {
    let daemon = try RunningDaemon(
      arguments: [], config: HardeningEndToEndTests.configuration(["MaxQueue": "1000"]))
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: """
        import json, socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.settimeout(10)
        lines = b"".join(('{"jsonrpc":"2.0","id":%d,"method":"context.evaluatePolicy","params":\(params)}\\n' % (i + 1)).encode() for i in range(200))
        s.sendall(lines)
        data, answers, errors, names = b"", 0, 0, set()
        while answers < 200:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
            *complete, data = data.split(b"\\n")
            for line in complete:
                message = json.loads(line)
                if "id" not in message: continue
                answers += 1
                if "error" in message:
                    errors += 1
                    names.add(message["error"].get("data", {}).get("name") or str(message["error"]["code"]))
        time.sleep(1.2)
        print(json.dumps({"answers": answers, "errors": errors, "names": sorted(names)}), flush=True)
        sys.stdin.read()
        """)
    let line = try #require(attacker.readLine(), "the attacker printed nothing: \(daemon.log())")
    // Its connection closes: the count of its second, which is over, is logged then.
    attacker.finish()
    let report = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
    #expect(report["answers"] == 200, "\(line)")
    #expect(report["errors"] == 200, "every evaluation refused, with its error: \(line)")
    let limit = AtOnceLogBudgetLimit.perSecond
    #expect(
      daemon.waitForLog(containing: "uid 65534: \(200 - limit) more evaluations ended at once"),
      "\(daemon.log())")
    let ownLines = daemon.log().split(separator: "\n").filter {
      $0.contains(ownLine) && $0.contains("uid 65534)")
    }
    #expect(ownLines.count == limit, "one line each for the first \(limit) only")
    // The daemon still serves, and logs, everyone else.
    let client = try daemon.connect()
    #expect(try client.call(Method.brokerStatus).map { try $0.get() } != nil)
  }

  /// Hostile (issue 28, row 5): a user's own key and no presence (nothing enrolled for nobody), and
  /// 200 `sshKey.sign` at once: each is refused at once and answered, and its SSH entry counts
  /// against the same at-once budget as its evaluation's line (before, each wrote one: 25,000 to
  /// 49,000 lines a second). Needs root.
  @Test(.enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"))
  func anSSHSignatureFloodIsLoggedWithinTheBudget() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: HardeningEndToEndTests.configuration(["MaxQueue": "1000"]))
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: """
        import json, socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.settimeout(10)
        def answers(count):
            data, got = b"", []
            while len(got) < count:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
                *complete, data = data.split(b"\\n")
                got += [m for m in map(json.loads, complete) if "id" in m]
            return got
        s.sendall(b'{"jsonrpc":"2.0","id":0,"method":"sshKey.create","params":{"name":"flood"}}\\n')
        created = answers(1)
        lines = b"".join(('{"jsonrpc":"2.0","id":%d,"method":"sshKey.sign","params":{"name":"flood","data":"AQID"}}\\n' % (i + 1)).encode() for i in range(200))
        s.sendall(lines)
        signed = answers(200)
        time.sleep(1.2)
        print(json.dumps({"created": "result" in created[0], "answers": len(signed), "errors": sum("error" in m for m in signed)}), flush=True)
        sys.stdin.read()
        """)
    let line = try #require(attacker.readLine(), "the attacker printed nothing: \(daemon.log())")
    attacker.finish()
    let report = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
    #expect(report["created"] == true, "\(line)")
    #expect(report["answers"] == 200 && report["errors"] == 200, "\(line)")
    #expect(
      daemon.waitForLog(containing: "more evaluations ended at once"), "\(daemon.log())")
    let logged = daemon.log().split(separator: "\n").filter { $0.contains("uid 65534") }
    let sshLines = logged.filter { $0.contains("SSH key flood") }
    let limit = AtOnceLogBudgetLimit.perSecond
    // The evaluations' lines and the SSH entries share one budget, and one notice counts the rest.
    #expect(sshLines.count <= limit, "\(sshLines.count) SSH entries")
    #expect(
      logged.count <= limit + 4,
      "\(logged.count) lines of uid 65534:\n\(logged.joined(separator: "\n"))")
    #expect(daemon.log().contains("sshKey.sign"), "the notice counts the SSH entries it held back")
  }

  /// The count of a flood's held-back lines is not lost when the daemon stops before anything
  /// else ends or disconnects. Needs root.
  @Test(.enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"))
  func whatTheLogBudgetHoldsBackIsLoggedAtShutdown() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: HardeningEndToEndTests.configuration(["MaxQueue": "1000"]))
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.settimeout(10)
        lines = b"".join(('{"jsonrpc":"2.0","id":%d,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"flood"}}\\n' % (i + 1)).encode() for i in range(100))
        s.sendall(lines)
        data = b""
        while data.count(b"\\n") < 100:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
        print(data.count(b"\\n"), flush=True)
        sys.stdin.read()
        """)
    #expect(attacker.readLine() == "100", "\(daemon.log())")
    // The attacker stays connected and nothing else ends: only the shutdown logs the count.
    daemon.stop()
    #expect(daemon.log().contains("more evaluations ended at once"), "\(daemon.log())")
    attacker.finish()
  }

  @Test("The rights store's thread runs 10 nicer than the event loop, and the store still answers")
  func storeThreadRunsBelowTheLoop() throws {
    let daemon = try RunningDaemon(arguments: [], config: HostileStoreTests.configuration())
    try daemon.start()
    defer { daemon.stop() }
    let client = try HostileStoreTests.client(daemon)
    // The store's thread starts with the first store call.
    let created = try client.ok(Method.handoffCreate, ["payload": "AA==", "ttl": 60])
    #expect(created["handoff"]?.stringValue != nil)
    let nice = Self.threadNiceValues(of: (daemon.pid ?? 0))
    let loop = try #require(nice[(daemon.pid ?? 0)], "no main thread in \(nice)")
    #expect(
      nice.values.contains(min(19, loop + 10)),
      "no thread at nice \(min(19, loop + 10)) (the loop's is \(loop)): \(nice)")
    #expect(
      try client.ok(Method.handoffList)["handoffs"]?.arrayValue?.count == 1,
      "the store still answers")
  }

  /// The nice value of each thread of `pid`, by thread id (/proc/PID/task/TID/stat, field 19).
  static func threadNiceValues(of pid: pid_t) -> [pid_t: Int] {
    let tasks = "/proc/\(pid)/task"
    var values: [pid_t: Int] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
      guard let tid = pid_t(name),
        let stat = try? String(contentsOfFile: "\(tasks)/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the name: field 3 (state) onwards; the nice value is field 19.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 16, let nice = Int(fields[16]) { values[tid] = nice }
    }
    return values
  }
}

/// `AtOnceLogBudget.perSecond` (LocalAuthBroker), which the end-to-end tests cannot import.
enum AtOnceLogBudgetLimit {
  static let perSecond = 20
}
