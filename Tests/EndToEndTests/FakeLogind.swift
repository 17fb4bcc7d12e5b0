import Foundation
import Glibc
import LocalAuthTestSupport

/// A private system-like bus (dbus-daemon with a policy written here, never the host's: only root
/// may own org.freedesktop.login1, anyone may send signals) and a fake logind on it
/// (Tests/logind/fake-logind.py), for the tests of issue 34: reuse windows that end on logind's
/// `Lock`, `PrepareForSleep` and `SessionRemoved`.
final class FakeLogind: @unchecked Sendable {
  // Used by one test at a time.
  let directory: String
  private let sessions: [String: UInt32]
  private var bus = Process()
  private var logind = Process()
  private var logindInput = Pipe()
  private var logindOutput = Pipe()

  /// Whether this host can run it: root (the hostile sender runs as nobody), dbus-daemon and a
  /// system Python with python3-dbus and python3-gi.
  static var isRunnable: Bool {
    getuid() == 0 && access("/usr/bin/dbus-daemon", X_OK) == 0
      && access("/usr/bin/setpriv", X_OK) == 0
      && system("/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null") == 0
  }

  static var scripts: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("logind")
  }

  /// The bus's address, for DBUS_SYSTEM_BUS_ADDRESS.
  var address: String { "unix:path=\(directory)/system_bus_socket" }

  /// Starts the bus and a logind with `sessions` (id: uid).
  init(sessions: [String: UInt32]) throws {
    self.sessions = sessions
    directory = NSTemporaryDirectory() + "localauthd-logind-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>system</type>
        <listen>unix:path=\(directory)/system_bus_socket</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow user="*"/>
          <deny own="*"/>
          <deny send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_requested_reply="true" send_type="method_return"/>
          <allow send_requested_reply="true" send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
          <allow receive_type="signal"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
          <allow send_destination="org.freedesktop.login1"/>
        </policy>
        <policy user="root">
          <allow own="org.freedesktop.login1"/>
        </policy>
      </busconfig>
      """
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    try start()
  }

  /// Starts the bus, then logind on it.
  private func start() throws {
    try PrivateBus.run(bus, configFile: directory + "/bus.conf")
    logind.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    logind.arguments =
      [Self.scripts.appendingPathComponent("fake-logind.py").path]
      + sessions.map { "\($0.key):\($0.value)" }
    logind.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
    logind.standardInput = logindInput
    logind.standardOutput = logindOutput
    try logind.run()
    guard PrivateBus.readLine(logindOutput) == "READY" else {
      throw DaemonTestError("the fake logind did not start")
    }
  }

  private func kill() {
    for process in [logind, bus] where process.isRunning {
      Glibc.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Stops the bus and logind (every connection to the bus breaks), then starts them again at the
  /// same address.
  func restart() throws {
    kill()
    unlink(directory + "/system_bus_socket")
    (bus, logind, logindInput, logindOutput) = (Process(), Process(), Pipe(), Pipe())
    try start()
  }

  deinit {
    kill()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Tells logind to emit: `lock ID`, `sleep`, `wake`, `new ID UID`, `remove ID`; returns once
  /// sent.
  func send(_ command: String) throws {
    logindInput.fileHandleForWriting.write(Data((command + "\n").utf8))
    guard PrivateBus.readLine(logindOutput) == "OK" else {
      throw DaemonTestError("the fake logind did not do '\(command)'")
    }
  }

  /// Runs Tests/logind/look-alike.py as nobody against session `session`: its lines (whether it
  /// could own logind's name, then SENT once the bus routed every look-alike signal).
  func lookAlike(session: String) throws -> [String] {
    let hostile = Process()
    let output = Pipe()
    hostile.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    hostile.arguments = [
      // The source on the command line, read as root here: uid 65534 may not read the checkout
      // (a clone in mktemp -d is 0700).
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
      try String(contentsOf: Self.scripts.appendingPathComponent("look-alike.py"), encoding: .utf8),
      session,
    ]
    hostile.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
    hostile.currentDirectoryURL = URL(fileURLWithPath: "/")
    hostile.standardOutput = output
    try hostile.run()
    var lines: [String] = []
    while let line = PrivateBus.readLine(output) { lines.append(line) }
    hostile.waitUntilExit()
    return lines
  }
}
