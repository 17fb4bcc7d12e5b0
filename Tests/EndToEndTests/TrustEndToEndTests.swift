import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Issue 18 against the real daemon: system evaluations (root acting for a user with `user`, as
/// pam_localauthd does) cannot be answered, phished or starved by the user's own processes or by
/// another user. The attacker really runs as nobody (setpriv), so these tests need root.
@Suite(.serialized, .enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"))
struct TrustEndToEndTests {
  /// The hardening tests' daemon (face waits for a script, root's passcode 1234), without the
  /// passcode when `passcode` is false.
  static func configuration(
    _ broker: KeyValuePairs<String, String> = [:], passcode: Bool = true
  ) -> DaemonConfig {
    HardeningEndToEndTests.configuration(broker, passcode: passcode ? "1234" : nil)
  }

  /// A started daemon and a root connection to it (the test stops the daemon).
  static func started(_ configuration: DaemonConfig) throws -> (RunningDaemon, LineClient) {
    let daemon = try RunningDaemon(arguments: [], config: configuration)
    try daemon.start()
    return (daemon, try daemon.connect())
  }

  /// Python helpers for the attacker: `call` sends a request and returns its response, keeping
  /// the notifications it passes in `seen`.
  static let prelude = """
    import json, os, select, socket, sys, time
    def conn():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1])
        return [s, b"", []]
    def message(c, timeout):
        while b"\\n" not in c[1]:
            r, _, _ = select.select([c[0]], [], [], timeout)
            if not r: return None
            chunk = c[0].recv(65536)
            if not chunk: return None
            c[1] += chunk
        line, c[1] = c[1].split(b"\\n", 1)
        return json.loads(line)
    def call(c, id, method, params):
        c[0].sendall((json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}) + "\\n").encode())
        while True:
            m = message(c, 20)
            if m is None or ("id" in m and "method" not in m and m["id"] == id): return m
            c[2].append(m)

    """

  static func report(_ attacker: NobodyProcess, _ daemon: RunningDaemon) throws -> JSONObject {
    let line = try #require(attacker.readLine(), "the attacker printed nothing: \(daemon.log())")
    return try #require(try JSONParser.parse(Array(line.utf8)).objectValue, "\(line)")
  }

  @Test("Malware of the user sets a first passcode, registers agents and cannot answer sudo")
  func malwareCannotAnswerASystemEvaluation() throws {
    let (daemon, root) = try Self.started(Self.configuration())
    defer { daemon.stop() }
    _ = try root.call(
      Method.sensorsEnroll, ["sensor": "face", "identity": "nobody-face", "user": "nobody"])
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: Self.prelude + """
        app = conn(); agent = conn(); second = conn()
        first = call(app, 1, "sensors.setPasscode", {"passcode": "0000"})
        registered = call(agent, 2, "agent.register", {})
        refused = call(second, 3, "agent.register", {})
        listed = call(app, 4, "agent.list", {})
        print(json.dumps({"setPasscode": first, "register": registered, "second": refused,
                          "list": listed, "pid": os.getpid()}), flush=True)
        seen = []
        while True:
            r, _, _ = select.select([agent[0], sys.stdin], [], [], 30)
            if sys.stdin in r or not r: break
            m = message(agent, 1)
            if m is None: break
            seen.append(m.get("method"))
            if m.get("method") in ("agent.prompt", "agent.passcode"):
                rid = m["params"]["requestID"]
                for action in ("fallback", "passcode"):
                    call(agent, 9, "agent.respond", {"requestID": rid, "action": action, "passcode": "0000"})
        print(json.dumps({"seen": seen}), flush=True)
        """)
    defer { attacker.finish() }
    let setup = try Self.report(attacker, daemon)
    #expect(
      setup["setPasscode"]?.objectValue?["result"] != nil, "a first passcode is still allowed")
    #expect(setup["register"]?.objectValue?["result"] != nil)
    let second = setup["second"]?.objectValue?["error"]?.objectValue
    #expect(second?["code"] == -32001)
    #expect(second?["data"]?.objectValue?["reason"] == "agentExists")
    #expect(second?["data"]?.objectValue?["pid"] == setup["pid"])
    let listed = setup["list"]?.objectValue?["result"]?.objectValue?["agents"]?.arrayValue
    #expect(listed?.count == 1)
    // sudo for nobody with policy=deviceOwnerAuthentication; then su nobody by another user (a
    // requester without an account) with a face that is not nobody's.
    let admin = try daemon.connect()
    // Face ID reads two faces a prompt, then stops (nobody can choose the fallback here).
    for requester: JSONValue in [.null, 61_777] {
      _ = try admin.call(
        Method.sensorsScript, ["sensor": "face", "commands": ["MATCH alice", "MATCH alice"]])
      let id = try root.request(
        Method.evaluatePolicy,
        ["policy": 2, "localizedReason": "sudo", "user": "nobody", "requester": requester])
      let (answer, _) = try root.response(to: id)
      guard case .response(_, let result)? = answer else {
        Issue.record("no answer: \(daemon.log())")
        return
      }
      #expect(result.errorCode == .authenticationFailed, "\(result)")
    }
    let counters = { (user: JSONValue) throws -> JSONValue? in
      try admin.call(Method.sensorsList, ["user": user])?.objectValue()?["sensors"]?.arrayValue?
        .first { $0.objectValue?["name"] == "face" }?.objectValue?["failedAttempts"]
    }
    #expect(try counters("nobody") == 2, "sudo's own failures count for nobody")
    #expect(try counters(61_777) == 2, "su's failures count for the requester, not nobody")
    attacker.finish()
    let seen = try Self.report(attacker, daemon)["seen"]?.arrayValue ?? []
    #expect(
      !seen.contains("agent.prompt") && !seen.contains("agent.passcode"),
      "the malware's agent saw \(seen)")
  }

  @Test("Another user's prompt parked at the passcode does not delay sudo by face")
  func aSystemEvaluationStartsAtOnce() throws {
    let (daemon, root) = try Self.started(Self.configuration())
    defer { daemon.stop() }
    _ = try root.call(Method.sensorsSetPasscode, ["passcode": "9753", "user": "nobody"])
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: Self.prelude + """
        agent = conn(); app = conn()
        call(agent, 1, "agent.register", {})
        app[0].sendall(b'{"jsonrpc":"2.0","id":7,"method":"context.evaluatePolicy","params":{"policy":2,"localizedReason":"hold"}}\\n')
        while True:
            m = message(agent, 20)
            if m is None or m.get("method") == "agent.passcode": break
        print(json.dumps({"parked": m is not None}), flush=True)
        while True:
            m = message(app, 30)
            if m is None or m.get("id") == 7: break
        print(json.dumps({"app": m}), flush=True)
        sys.stdin.read()
        """)
    defer { attacker.finish() }
    #expect(try Self.report(attacker, daemon)["parked"] == true)
    _ = try root.call(Method.sensorsScript, ["sensor": "face", "commands": ["MATCH alice"]])
    let started = Date()
    let sudo = try root.call(
      Method.evaluatePolicy, ["policy": 2, "localizedReason": "sudo", "user": "root"])
    let elapsed = Date().timeIntervalSince(started)
    #expect(sudo?.objectValue()?["sensor"] == "face", "\(String(describing: sudo))")
    let app = try Self.report(attacker, daemon)["app"]?.objectValue?["error"]?.objectValue
    #expect(app?["code"] == -4)
    #expect(app?["data"]?.objectValue?["reason"] == "systemAuthentication")
    print("system evaluation over a parked prompt answered in \(elapsed) s")
  }

  @Test(
    "Owners=device refuses user evaluations; another user cannot set the owner's first passcode")
  func deviceModeRefuses() throws {
    let (daemon, root) = try Self.started(Self.configuration(["Owners": "device"], passcode: false))
    defer { daemon.stop() }
    let refused = try root.call(
      Method.evaluatePolicy, ["policy": 1, "localizedReason": "sudo", "user": "nobody"])
    #expect(refused?.errorCode == .permissionDenied)
    if case .failure(let error)? = refused { #expect(error.data["reason"] == "deviceOwnerMode") }
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: Self.prelude + """
        c = conn()
        print(json.dumps(call(c, 1, "sensors.setPasscode", {"passcode": "0000"})), flush=True)
        sys.stdin.read()
        """)
    defer { attacker.finish() }
    let error = try Self.report(attacker, daemon)["error"]?.objectValue
    #expect(error?["code"] == -32003)
    #expect(error?["data"]?.objectValue?["reason"] == "notDeviceOwner")
  }
}

extension Result where Success == JSONValue, Failure == RPCError {
  /// The error code, or nil on success.
  fileprivate var errorCode: ErrorCode? {
    if case .failure(let error) = self { return error.code }
    return nil
  }

  /// The success object, or nil.
  fileprivate func objectValue() -> JSONObject? { try? get().objectValue }
}
