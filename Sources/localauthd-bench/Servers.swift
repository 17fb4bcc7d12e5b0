import CLocalAuthSystem
import Glibc

/// Where the bench keeps its temporary files and how it starts the servers under test. Main thread only.
struct ServerLauncher {
  /// The localauthd binary.
  let daemonPath: String
  /// The C floor server binary.
  let floorPath: String
  /// A private temporary directory (config, sockets, state, logs).
  let workDirectory: String
  /// The CPU to pin servers to with taskset (nil: no pinning).
  let serverCPU: Int?

  /// The instant-sensor configuration of the bench (docs/protocol.md, "The script language";
  /// DefaultDelayMs=0).
  static let configuration = """
    [Broker]
    MaxQueue=100000
    MaxQueuePerClient=1000
    [Sensor.face]
    Kind=faceID
    Enrolled=alice
    Default=MATCH
    [Sensor.passcode]
    Kind=passcode
    Passcode=1234

    """

  /// The same, with nobody enrolled: every canEvaluatePolicy for biometrics is refused with
  /// biometryNotEnrolled (the refusal workload of issue 30).
  static let unenrolledConfiguration = configuration.replacingFirstLine(
    "Enrolled=alice", with: "# nobody enrolled")

  /// Makes the work directory and writes the configurations.
  init(daemonPath: String, floorPath: String, serverCPU: Int?) throws(BenchError) {
    var template = Array("/tmp/localauthd-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
    workDirectory = String(cString: made)
    self.daemonPath = daemonPath
    self.floorPath = floorPath
    self.serverCPU = serverCPU
    mkdir(stateDirectory, 0o700)
    // LOCALAUTHD_BENCH_BROKER adds `Key=Value` lines to [Broker] (diagnosis, e.g. PromptTimeoutSec=1).
    let extra = getenv("LOCALAUTHD_BENCH_BROKER").map { String(cString: $0) + "\n" } ?? ""
    try writeFile(
      configPath, Self.configuration.replacingFirstLine("[Broker]", with: "[Broker]\n" + extra))
    try writeFile(
      unenrolledConfigPath,
      Self.unenrolledConfiguration.replacingFirstLine("[Broker]", with: "[Broker]\n" + extra))
  }

  /// The configuration file.
  var configPath: String { workDirectory + "/localauthd.conf" }
  /// The configuration file with nobody enrolled.
  var unenrolledConfigPath: String { workDirectory + "/localauthd-unenrolled.conf" }
  /// The daemon's STATE_DIRECTORY.
  var stateDirectory: String { workDirectory + "/state" }
  /// The daemon's log (stderr).
  var logPath: String { workDirectory + "/localauthd.log" }

  /// Starts localauthd on a fresh socket and waits until it accepts.
  func startDaemon(_ name: String, config: String? = nil) throws(BenchError) -> (
    ChildProcess, String
  ) {
    let socket = workDirectory + "/\(name).sock"
    let process = try ChildProcess(
      pinned([daemonPath, "--socket", socket, "--stderr", "--config", config ?? configPath]),
      environment: ["STATE_DIRECTORY=\(stateDirectory)"], logPath: logPath)
    try waitUntilAccepting(socket, process)
    return (process, socket)
  }

  /// Starts the C floor server on a fresh socket and waits until it accepts.
  func startFloor() throws(BenchError) -> (ChildProcess, String) {
    let socket = workDirectory + "/floor.sock"
    let process = try ChildProcess(pinned([floorPath, socket]))
    try waitUntilAccepting(socket, process)
    return (process, socket)
  }

  /// The command line run under `taskset -c CPU` when pinning.
  func pinned(_ arguments: [String]) -> [String] {
    guard let serverCPU else { return arguments }
    return ["/usr/bin/taskset", "-c", String(serverCPU)] + arguments
  }

  /// Polls until a connection to `path` succeeds (5 s at most).
  func waitUntilAccepting(_ path: String, _ process: ChildProcess) throws(BenchError) {
    let deadline = Clock.nanoseconds() + 5_000_000_000
    while Clock.nanoseconds() < deadline {
      let fd = las_connect_unix(path)
      if fd >= 0 {
        close(fd)
        return
      }
      guard process.isRunning else {
        throw BenchError("server for \(path) exited at start; see \(logPath)")
      }
      Clock.sleep(milliseconds: 5)
    }
    throw BenchError("server for \(path) did not accept within 5 s")
  }

  /// Removes the work directory's files (best effort).
  func cleanUp() {
    if let directory = opendir(workDirectory) {
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." && name != "state" { unlink(workDirectory + "/" + name) }
      }
      closedir(directory)
    }
    rmdir(stateDirectory)
    rmdir(workDirectory)
  }
}

extension String {
  /// The text with its first line equal to `line` replaced (lines split on newlines).
  func replacingFirstLine(_ line: String, with replacement: String) -> String {
    var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let index = lines.firstIndex(of: line) { lines[index] = replacement }
    return lines.joined(separator: "\n")
  }
}

/// A blocking request/response helper for set-up and checks (not for load).
enum RoundTrip {
  /// Sends one line on a blocking socket and returns the first response line (skipping notifications).
  static func ask(_ fd: Int32, _ request: [UInt8]) -> String? {
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { return nil }
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let got = recv(fd, &byte, 1, 0)
      if got <= 0 { return nil }
      if byte != 0x0A {
        line.append(byte)
        continue
      }
      if line.count > 18 && line[18] == UInt8(ascii: "m") {
        line.removeAll()
        continue
      }
      return String(decoding: line, as: UTF8.self)
    }
  }

  /// The daemon's `broker.status` "clients" figure, over a fresh connection (which it counts too).
  static func clientCount(_ path: String) -> Int? {
    let fd = las_connect_unix(path)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let answer = ask(fd, Requests.status) else { return nil }
    return integer(after: #""clients":"#, in: answer)
  }

  /// The integer that follows the first `key` in `text`, or nil.
  static func integer(after key: String, in text: String) -> Int? {
    let haystack = Array(text.utf8)
    let needle = Array(key.utf8)
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      let digits = haystack[(start + needle.count)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
      return Int(String(decoding: digits, as: UTF8.self))
    }
    return nil
  }
}
