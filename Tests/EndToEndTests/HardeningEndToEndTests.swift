import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Issue 9 against the real daemon: each attack of a local user fails, and a well-behaved client
/// stays served. Attacks by another user run as nobody (setpriv), so these tests need root.
@Suite(.serialized)
struct HardeningEndToEndTests {
  /// The hardening tests' daemon: `broker` settings, alice's face answering `answer`, root's
  /// passcode 1234.
  static func configuration(
    _ broker: KeyValuePairs<String, String> = [:], answer: DaemonConfig.Answer = .wait,
    delayMs: Int? = nil, passcode: String? = "1234"
  ) -> DaemonConfig {
    var config = DaemonConfig()
    for (key, value) in broker { config = config.broker(key, value) }
    return config.face(enrolled: ["alice"], answer: answer, delayMs: delayMs).passcode(passcode)
  }

  static let evaluate =
    #"{"jsonrpc":"2.0","id":%d,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"e2e"}}"#

  @Test(
    "Item 2: a uid's connections are bounded; the one past the limit gets an error naming it",
    .enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"))
  func connectionsPerUID() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(["MaxConnectionsPerUID": "3"]))
    try daemon.start()
    defer { daemon.stop() }
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: """
        import json, socket, sys
        conns = []
        for i in range(4):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.settimeout(10)
            conns.append(s)
        refused = b""
        while not refused.endswith(b"\\n"):
            chunk = conns[3].recv(4096)
            if not chunk: break
            refused += chunk
        served = 0
        for s in conns[:3]:
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"broker.status"}\\n')
            if b'"result"' in s.recv(65536): served += 1
        print(json.dumps({"refused": refused.decode(), "served": served}), flush=True)
        sys.stdin.read()
        """)
    defer { attacker.finish() }
    let line = try #require(attacker.readLine(), "the attacker printed nothing: \(daemon.log())")
    let report = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
    #expect(report["served"] == 3)
    let refused = report["refused"]?.stringValue ?? ""
    #expect(
      refused.contains("limitExceeded") && refused.contains("MaxConnectionsPerUID"), "\(refused)")
    // Root, the well-behaved client here, is not bounded by the per-uid limit.
    let clients = try (0..<5).map { _ in try daemon.connect() }
    for client in clients {
      #expect(try client.call(Method.brokerStatus).map { try $0.get() } != nil)
    }
  }

  @Test(
    "Item 3: a uid flooding the queue is bounded to its share; another uid runs next",
    .enabled(if: NobodyProcess.isAvailable, "needs root, setpriv and python3"))
  func queueStarvation() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(["MaxQueuePerUID": "4", "MaxQueue": "1000"]))
    try daemon.start()
    defer { daemon.stop() }
    // Per-user owners: nobody's evaluations need nobody's own enrolled face and passcode.
    let setup = try daemon.connect()
    _ = try setup.call(
      Method.sensorsEnroll, ["sensor": "face", "identity": "nobody-face", "user": "nobody"])
    _ = try setup.call(Method.sensorsSetPasscode, ["passcode": "9753", "user": "nobody"])
    setup.close()
    let attacker = try NobodyProcess(
      socket: daemon.socketPath,
      script: """
        import json, socket, sys, time
        conns, refused, limits = [], 0, set()
        for c in range(3):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.settimeout(0.5)
            for i in range(5):
                s.sendall(('{"jsonrpc":"2.0","id":%d,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"flood"}}\\n' % (i + 1)).encode())
            conns.append(s)
        time.sleep(0.5)
        for s in conns:
            data = b""
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
            except socket.timeout:
                pass
            for line in data.splitlines():
                message = json.loads(line)
                if message.get("error", {}).get("code") == -32002:
                    refused += 1
                    limits.add(message["error"]["data"].get("limit"))
        print(json.dumps({"refused": refused, "limits": sorted(l for l in limits if l)}), flush=True)
        sys.stdin.read()
        """)
    defer { attacker.finish() }
    let line = try #require(attacker.readLine(), "the attacker printed nothing: \(daemon.log())")
    let report = try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
    // One running and four queued; the other ten refused at the uid's share.
    #expect(report["refused"] == 10, "\(line)")
    #expect(report["limits"] == ["MaxQueuePerUID"])
    let victim = try daemon.connect()
    try victim.send(line: String(format: Self.evaluate, 1))
    let admin = try daemon.connect()
    // The attacker's running prompt ends; the victim's runs next and matches.
    _ = try admin.call(
      Method.sensorsScript, ["sensor": "face", "commands": ["CANCEL", "MATCH"]])
    let answer = try victim.answer(to: 1)
    #expect(
      try answer?.get().objectValue?["sensor"] == "face", "victim: \(String(describing: answer))")
  }

  @Test("Item 2: a connection with too many requests awaiting answers is not read until some end")
  func pendingRequestsPauseReading() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(["MaxPendingPerConnection": "3"]))
    try daemon.start()
    defer { daemon.stop() }
    let client = try daemon.connect()
    for id in 1...3 { try client.send(line: String(format: Self.evaluate, id)) }
    #expect(try client.notification(Notification.started) != nil)
    try client.send(line: #"{"jsonrpc":"2.0","id":4,"method":"broker.status"}"#)
    #expect(try client.answer(to: 4, seconds: 1) == nil, "read while at the limit")
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsScript, ["sensor": "face", "commands": ["MATCH"]])
    let status = try client.answer(to: 4)
    #expect(try status?.get().objectValue?["queued"] != nil, "\(String(describing: status))")
  }

  @Test("Item 8: a process name with a newline cannot forge a log line")
  func processNameCannotForgeLogLines() throws {
    let daemon = try RunningDaemon(
      arguments: [], config: Self.configuration(answer: .match))
    try daemon.start()
    defer { daemon.stop() }
    let script = """
      import ctypes, socket, sys
      ctypes.CDLL(None).prctl(15, b"a\\nlocalauthd: X", 0, 0, 0)
      s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1])
      s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"x"}}\\n')
      data = b""
      while b'"id":1' not in data:
          data += s.recv(65536)
      """
    let (status, output) = try runCapturing(
      OtherUserClient.python, ["-c", script, daemon.socketPath])
    #expect(status == 0, "\(output)")
    daemon.stop()
    let log = daemon.log()
    let forged = log.split(separator: "\n").filter { $0.hasPrefix("localauthd: X") }
    #expect(forged.isEmpty, "forged lines: \(forged)")
    #expect(log.contains(#"a\nlocalauthd: X"#), "the name appears escaped: \(log)")
  }

  // MARK: Item 7: the socket's directory

  /// Runs the daemon on `socket` and returns its exit status and log (it should refuse at once).
  private func refusal(socket: String, state: String) throws -> (Int32, String) {
    try runCapturing(
      try RunningDaemon.binaryPath(), ["--socket", socket, "--state-dir", state, "--stderr"])
  }

  @Test(
    "Item 7: a socket directory another user owns, or can write, or links to, is refused",
    .enabled(if: getuid() == 0, "needs root to make another user's directory"))
  func untrustedSocketDirectoriesAreRefused() throws {
    let base = NSTemporaryDirectory() + "localauthd-dir-\(UUID().uuidString.prefix(8))"
    let state = base + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }

    let owned = base + "/owned"
    mkdir(owned, 0o755)
    chown(owned, 65534, 65534)
    let (ownedStatus, ownedLog) = try refusal(socket: owned + "/localauthd.sock", state: state)
    #expect(ownedStatus != 0 && ownedLog.contains("owned by uid 65534"), "\(ownedLog)")

    let open = base + "/open"
    mkdir(open, 0o755)
    chmod(open, 0o777)
    let (openStatus, openLog) = try refusal(socket: open + "/localauthd.sock", state: state)
    #expect(openStatus != 0 && openLog.contains("writable by other users"), "\(openLog)")

    let real = base + "/real"
    mkdir(real, 0o755)
    let link = base + "/link"
    symlink(real, link)
    lchown(link, 65534, 65534)
    let (linkStatus, linkLog) = try refusal(socket: link + "/localauthd.sock", state: state)
    #expect(linkStatus != 0 && linkLog.contains("symbolic link owned by uid 65534"), "\(linkLog)")

    // The socket path itself swapped for a link to a root-only file: refused, the file untouched.
    let target = base + "/secret"
    _ = FileManager.default.createFile(atPath: target, contents: Data("x".utf8))
    chmod(target, 0o600)
    symlink(target, real + "/localauthd.sock")
    let (swapStatus, swapLog) = try refusal(socket: real + "/localauthd.sock", state: state)
    #expect(swapStatus != 0 && swapLog.contains("not a socket"), "\(swapLog)")
    var info = stat()
    stat(target, &info)
    #expect(info.st_mode & 0o7777 == 0o600)
  }

  @Test("Item 7: the socket is made 0666 in a trusted directory")
  func socketModeIsSetWithoutFollowingLinks() throws {
    let daemon = try RunningDaemon(arguments: [], config: Self.configuration())
    try daemon.start()
    defer { daemon.stop() }
    var info = stat()
    #expect(lstat(daemon.socketPath, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o666)
  }
}

extension LineClient {
  /// The answer to the request with this integer id, or nil when none comes in time.
  fileprivate func answer(to id: Int, seconds: Double = 10) throws -> Result<JSONValue, RPCError>? {
    guard case .response(_, let result)? = try response(to: .int(id), seconds: seconds).0 else {
      return nil
    }
    return result
  }
}
