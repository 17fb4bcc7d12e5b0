import Foundation
import Testing

/// The broker does no I/O (issues 20 and 30): accounts, files, processes, `/proc`, storage,
/// threads, clocks and randomness are the server's, handed in as values or through injected
/// protocols (`AccountDirectory`, `RightsStorage`, `WorkerThread`, `TimeSource`, `RandomSource`).
/// A scan of Sources/LocalAuthBroker fails when such a call comes back.
@Suite struct CoreDoesNoIOTests {
  /// What the core must not say: system modules, account and file and process calls, host paths.
  static let forbidden: [(what: String, pattern: String)] = [
    (
      "a system module",
      #"^\s*import\s+(Glibc|Musl|Darwin|Foundation|CLocalAuthSystem|SystemFacts|Dispatch)\s*$"#
    ),
    ("a storage module", #"^\s*import\s+(RightStore|CSQLite|SQLite3?)\s*$"#),
    (
      "a thread of its own",
      #"\b(DispatchQueue|DispatchSemaphore|DispatchSource\w*|Thread|pthread_create)\b"#
    ),
    (
      "a clock read",
      #"\b(ContinuousClock|SuspendingClock)\.now\b|\bDate\(\)|\bWallClock\.|clock_gettime"#
    ),
    (
      "a random source",
      #"\b(SystemRandomNumberGenerator|SecureRandom|arc4random\w*|getrandom)\b|\.random\("#
    ),
    (
      "an account lookup",
      #"\b(getpw\w*|getgr\w*|getsp\w*|getgrouplist|initgroups|getlogin\w*)\s*\("#
    ),
    (
      "a file call",
      #"(?<![\w.])(open|openat|creat|fopen|read|pread|readv|write|pwrite|readlink|stat|lstat|fstat|access|opendir|readdir|unlink|rename|mkdir|ftruncate|fsync)\s*\("#
    ),
    (
      "a file API",
      #"\b(FileManager|FileHandle|FileDescriptor|contentsOfFile)\b|\b(Data|String)\(\s*contentsOf:"#
    ),
    (
      "a process call",
      #"(?<![\w.])(fork|vfork|execv\w*|execl\w*|posix_spawn\w*|waitpid|kill|system|popen|getpid|getppid)\s*\("#
    ),
    ("a host path", #""/(proc|sys|etc|run|dev|var)(/|")"#),
  ]

  /// The findings in one file's text: "line: what", comments left out.
  static func findings(in text: String) -> [String] {
    var found: [String] = []
    for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      var line = String(rawLine)
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
      if let comment = line.range(of: " // ") { line = String(line[..<comment.lowerBound]) }
      for (what, pattern) in forbidden
      where line.range(of: pattern, options: .regularExpression) != nil {
        found.append("\(number + 1): \(what): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }

  /// Sources/LocalAuthBroker, found from this file's path.
  static var brokerSources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/LocalAuthBroker")
  }

  @Test func theBrokerMakesNoAccountFileOrProcessCalls() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.brokerSources.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    #expect(files.count > 20)
    var findings: [String] = []
    for file in files {
      let text = try String(
        contentsOf: Self.brokerSources.appendingPathComponent(file), encoding: .utf8)
      findings += Self.findings(in: text).map { "\(file):\($0)" }
    }
    #expect(findings == [], "LocalAuthBroker does no I/O: gather it in the server and pass it in")
  }

  /// The scan finds what it looks for (the calls the broker made before issue 20) and passes the
  /// code that replaced them.
  @Test(
    arguments: [
      "import Glibc",
      "    if getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0 {",
      "    let descriptor = open(path, O_RDONLY | O_CLOEXEC)",
      "    let count = read(descriptor, &buffer, buffer.count)",
      #"    guard pid > 0, stat("/proc/\(pid)", &status) == 0 else { return nil }"#,
      #"    readSmallFile("/proc/\(pid)/cgroup")"#,
      "    let data = try Data(contentsOf: url)",
      "    let child = fork()",
      "import Dispatch",
      "import RightStore",
      "  let queue = DispatchQueue(label: \"localauthd.passcode-hash\")",
      "    let now = ContinuousClock.now",
      "      let now = Date()",
      "      since: Int64(WallClock.nowMilliseconds() / 1000))",
      "  var generator = SystemRandomNumberGenerator()",
      "    digestKey = rightStore?.digestKey ?? SecureRandom.bytes(32)",
      "    let id = UInt64.random(in: 0...UInt64.max)",
    ])
  func theScanFindsTheCallsTheBrokerUsedToMake(_ line: String) {
    #expect(!Self.findings(in: line).isEmpty)
  }

  @Test(
    arguments: [
      "import FoundationEssentials",
      "    guard let session = client.peer.loginSession else {",
      "    guard processes.owner(ofProcess: Int32(pid)) == client.peer.uid else {",
      "    let owner = accounts.owner(uid: configuration.setupOwner)",
      "    storeWorker.submit { try store.write(record) }",
      "    full.members.append(contentsOf: params.members)",
      "import RightsStorage",
      "    let now = time.now()",
      "    let high = random.next()",
      "      thread.run { continuation.resume(returning: hash.verify(passcode)) }",
      "  // A comment may say open( or /proc.",
      #"    "the daemon cannot read this client's executable (/proc/PID/exe needs CAP_SYS_PTRACE)""#,
    ])
  func theScanPassesTheBrokersOwnCalls(_ line: String) {
    #expect(Self.findings(in: line) == [])
  }
}
