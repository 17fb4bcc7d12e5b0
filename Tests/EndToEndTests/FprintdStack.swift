import Foundation
import Glibc
import LocalAuthTestSupport

/// A real fprintd with libfprint's virtual device on a private system bus with polkit
/// (Tests/fprintd/private-stack.sh, in private namespaces; the host's bus and polkit are untouched).
final class FprintdStack: @unchecked Sendable {
  // Owned by one test.
  let directory: String
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()

  /// Whether this host can run the stack: root (for the mount namespace) and fprintd installed.
  static var isRunnable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/libexec/fprintd")
  }

  /// The bus address for clients outside the namespace.
  var busAddress: String { "unix:path=\(directory)/bus/system_bus_socket" }

  /// Starts the stack; with `activatable`, fprintd is started by the bus on the first call to its name
  /// (and again after each exit), never by the script.
  init(activatable: Bool = false) throws {
    directory = NSTemporaryDirectory() + "localauthd-fprintd-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    process.executableURL = root.appendingPathComponent("Tests/fprintd/private-stack.sh")
    process.arguments = [directory] + (activatable ? ["activatable"] : [])
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    guard readLine() == "READY" else {
      throw DaemonTestError("the private fprintd stack did not start")
    }
  }

  deinit {
    // The stack's processes may inherit a blocked SIGTERM from the test runner: SIGKILL each one.
    let pids = (try? String(contentsOfFile: directory + "/pids", encoding: .utf8)) ?? ""
    for pid in pids.split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) {
      kill(pid, SIGKILL)
    }
    if let monitor { kill(monitor.processIdentifier, SIGKILL) }
    if let callMonitor { kill(callMonitor.processIdentifier, SIGKILL) }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func readLine() -> String? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      guard read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1 else { return nil }
      if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
  }

  private var consumedFingerNeeded = 0
  private let fingerNeeded = FingerNeededCount()
  private var monitor: Process?
  private let monitorOutput = Pipe()

  /// Starts dbus-monitor on the private bus and counts `finger-needed` → true changes.
  private func watchFingerNeeded() throws {
    let monitor = Process()
    monitor.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
    monitor.arguments = [
      "-oL", "/usr/bin/dbus-monitor", "--system", "type='signal',member='PropertiesChanged'",
    ]
    monitor.environment = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress]
    let out = monitorOutput
    monitor.standardOutput = out
    monitor.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try monitor.run()
    self.monitor = monitor
    let fd = out.fileHandleForReading.fileDescriptor
    let counter = fingerNeeded
    let socket = directory + "/vdev.sock"
    let reader = Thread {
      var line: [UInt8] = []
      var sawName = false
      var byte: UInt8 = 0
      var subscribed = false
      while read(fd, &byte, 1) == 1 {
        guard byte == 0x0A else {
          line.append(byte)
          continue
        }
        let text = String(decoding: line, as: UTF8.self)
        line.removeAll()
        if !subscribed && text.contains("member=NameLost") {
          subscribed = true
          counter.markSubscribed()
        }
        if text.contains("\"finger-needed\"") {
          sawName = true
        } else if sawName {
          if text.contains("boolean true"), let armed = counter.increment() {
            try? FprintdStack.send(armed, to: socket)
            counter.markSent()
          }
          sawName = false
        }
      }
    }
    reader.start()
    // Subscribed once it prints its own NameLost (it gave up its name to become a monitor).
    _ = eventually(blocking: .milliseconds(5)) { fingerNeeded.isSubscribed }
  }

  private var callMonitor: Process?

  /// Starts recording the method calls made to fprintd's device (dbus-monitor); `deviceCalls` reads
  /// them.
  func recordDeviceCalls() throws {
    let path = directory + "/device-calls"
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let monitor = Process()
    monitor.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
    monitor.arguments = [
      "-oL", "/usr/bin/dbus-monitor", "--system",
      "type='method_call',interface='net.reactivated.Fprint.Device'",
    ]
    monitor.environment = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress]
    monitor.standardOutput = FileHandle(forWritingAtPath: path)
    monitor.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try monitor.run()
    callMonitor = monitor
    // Recording once it prints its own NameLost (it gave up its name to become a monitor).
    let recording = {
      ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains("member=NameLost")
    }
    _ = eventually(blocking: .milliseconds(5)) { recording() }
  }

  /// The device's methods called since `recordDeviceCalls`, in order (Claim, VerifyStart, …).
  var deviceCalls: [String] {
    let text = (try? String(contentsOfFile: directory + "/device-calls", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").filter { $0.hasPrefix("method call") }.compactMap { line in
      line.range(of: "member=").map { String(line[$0.upperBound...]) }
    }
  }

  /// A finger with print `id` touches the virtual sensor (waits until the device is open to take it).
  func scan(_ id: String) throws { try send("SCAN \(id)") }

  /// Scans `id` the moment fprintd next waits for a finger (sent from the monitor's thread, so the
  /// virtual device's 500 ms window is met even on a loaded machine); returns once it was sent.
  func scanWhenFingerNeeded(_ id: String) throws { try sendWhenFingerNeeded("SCAN \(id)") }

  /// Keeps the virtual device waiting from the moment fprintd next waits for a finger (libfprint's
  /// SLEEP), as a person who has not touched it yet.
  func holdFingerWhenNeeded() throws { try sendWhenFingerNeeded("SLEEP 60000") }

  /// Waits until fprintd next waits for a finger, sending nothing (for a capture that is then
  /// cancelled: the next command goes to the finger-needed after this one).
  func waitForFingerNeeded() throws {
    consumedFingerNeeded += 1
    let wanted = consumedFingerNeeded
    guard
      eventually(within: .seconds(20), blocking: .milliseconds(5), { fingerNeeded.value >= wanted })
    else { throw DaemonTestError("fprintd never waited for a finger") }
  }

  /// Sends a virtual-device command the moment fprintd next waits for a finger.
  func sendWhenFingerNeeded(_ command: String) throws {
    consumedFingerNeeded += 1
    if fingerNeeded.arm(command, at: consumedFingerNeeded) {
      try send(command)
      return
    }
    guard
      eventually(within: .seconds(20), blocking: .milliseconds(5), { fingerNeeded.armedWasSent })
    else { throw DaemonTestError("fprintd never waited for a finger") }
  }

  private func send(_ command: String?) throws {
    try Self.send(command, to: directory + "/vdev.sock")
  }

  /// Writes one command to the virtual device's socket (one connection per command).
  static func send(_ command: String?, to socketPath: String) throws {
    for _ in 0..<1000 {
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let path = Array(socketPath.utf8CString)
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.enumerated() where index < raw.count {
          raw[index] = UInt8(bitPattern: byte)
        }
      }
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      if connected == 0 {
        if let command {
          let bytes = Array(command.utf8)
          _ = write(fd, bytes, bytes.count)
        }
        close(fd)
        return
      }
      close(fd)
      usleep(5_000)
    }
    throw DaemonTestError("the virtual device never opened")
  }

  /// Enrolls print `id` as `finger` of `user` with fprintd-enroll, scanning until it completes.
  func enroll(_ user: String, print id: String, finger: String = "right-index-finger") throws {
    let enroll = Process()
    enroll.executableURL = URL(fileURLWithPath: "/usr/bin/fprintd-enroll")
    enroll.arguments = ["-f", finger, user]
    enroll.environment = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "PATH": "/usr/bin:/bin"]
    enroll.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try enroll.run()
    var scans = 0
    while enroll.isRunning && scans < 30 {
      try scan(id)
      scans += 1
      usleep(100_000)
    }
    enroll.waitUntilExit()
    guard enroll.terminationStatus == 0 else { throw DaemonTestError("fprintd-enroll failed") }
    // Watched from here on: the enrollment's own finger-needed changes are not the daemon's verifies.
    try watchFingerNeeded()
  }

  /// How many times the bus activated fprintd (activatable stacks).
  var activations: Int {
    let text = (try? String(contentsOfFile: directory + "/activations", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").count
  }

  /// Whether the last fprintd started is still alive.
  var fprintdIsRunning: Bool {
    let text = (try? String(contentsOfFile: directory + "/fprintd.pid", encoding: .utf8)) ?? ""
    let pid = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // Alive and not a zombie its parent (the bus) has not reaped yet.
    guard !pid.isEmpty,
      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return !stat[close...].hasPrefix(") Z")
  }

  /// Kills fprintd (SIGKILL).
  /// (Its pid is also in DIR/pids, for the final clean-up.)
  func killFprintd() throws {
    let text = try String(contentsOfFile: directory + "/fprintd.pid", encoding: .utf8)
    guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
    kill(pid, SIGKILL)
  }

  /// Kills the private bus's dbus-daemon (as a restart of the system bus would end its clients'
  /// connections).
  func killBus() throws {
    let pids = try String(contentsOfFile: directory + "/pids", encoding: .utf8)
    for pid in pids.split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) {
      let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
      if name.hasPrefix("dbus-daemon") { kill(pid, SIGKILL) }
    }
  }

  /// Sends `signal` to fprintd (SIGSTOP: it stays on the bus and stops answering).
  func signalFprintd(_ signal: Int32) throws {
    let text = try String(contentsOfFile: directory + "/fprintd.pid", encoding: .utf8)
    guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
    kill(pid, signal)
  }

  /// Starts fprintd again.
  func restartFprintd() throws {
    try input.fileHandleForWriting.write(contentsOf: Data("restart\n".utf8))
    guard readLine() == "RESTARTED" else { throw DaemonTestError("fprintd did not restart") }
  }

  /// fprintd-verify run directly against fprintd: claims the device itself (so it proves nobody else
  /// holds it) and scans `id`; returns its output.
  func verifyDirectly(_ user: String, print id: String) throws -> String {
    let verify = Process()
    verify.executableURL = URL(fileURLWithPath: "/usr/bin/fprintd-verify")
    verify.arguments = [user]
    verify.environment = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "PATH": "/usr/bin:/bin"]
    let out = Pipe()
    verify.standardOutput = out
    verify.standardError = out
    try verify.run()
    try scanWhenFingerNeeded(id)
    verify.waitUntilExit()
    return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}

/// How many times fprintd's device said `finger-needed` = true. Thread-safe.
final class FingerNeededCount: @unchecked Sendable {
  // Guarded by the lock.
  private let lock = NSLock()
  private var count = 0
  private var armed: (command: String, at: Int)?
  private var sent = false

  var value: Int { lock.withLock { count } }

  /// Counts one; returns the armed command when this is the change it waits for.
  func increment() -> String? {
    lock.withLock {
      count += 1
      guard let armed, count >= armed.at else { return nil }
      self.armed = nil
      return armed.command
    }
  }

  /// Arms `command` for change number `at`; true when that change already happened (send it now).
  func arm(_ command: String, at: Int) -> Bool {
    lock.withLock {
      sent = false
      if count >= at { return true }
      armed = (command, at)
      return false
    }
  }

  private var subscribed = false

  /// dbus-monitor is listening.
  func markSubscribed() { lock.withLock { subscribed = true } }

  /// Whether dbus-monitor is listening.
  var isSubscribed: Bool { lock.withLock { subscribed } }

  /// The armed command went out.
  func markSent() { lock.withLock { sent = true } }

  /// Whether the armed command went out.
  var armedWasSent: Bool { lock.withLock { sent } }
}
