import Foundation
import Glibc

/// A private session bus (dbus-daemon with a configuration written here, never the user's) and a
/// fake notification server on it (Tests/notifications/fake-notification-server.py, run by the
/// system Python: python3-dbus and python3-gi), which records every call it answers. For the
/// desktop notifications' tests (DesktopNotificationsTests, EndToEndTests).
/// `@unchecked Sendable`: its members are constants (the processes are started in `init` and only
/// killed in `deinit`); `calls` reads the server's file afresh.
public final class PrivateSessionBus: @unchecked Sendable {
  public let directory: String
  private let bus = Process()
  private let server = Process()

  /// Whether this host can run it: dbus-daemon and a system Python with dbus and gi.
  public static var isRunnable: Bool {
    access("/usr/bin/dbus-daemon", X_OK) == 0
      && system("/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null") == 0
  }

  /// The bus's address.
  public var address: String { "unix:path=\(directory)/bus" }

  /// The calls the server answered so far, one JSON object each.
  public var calls: [[String: Any]] {
    guard let text = try? String(contentsOfFile: directory + "/calls.jsonl", encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// Starts the bus, and the notification server on it unless `server` is false.
  public init(server startServer: Bool = true) throws {
    directory = NSTemporaryDirectory() + "localauthd-session-bus-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(directory)/bus</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow send_destination="*"/>
          <allow own="*"/>
          <allow receive_sender="*"/>
        </policy>
      </busconfig>
      """
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    try PrivateBus.run(bus, configFile: directory + "/bus.conf")
    guard startServer else { return }
    let serverOutput = Pipe()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    server.arguments = [
      Self.script.path, address, directory + "/calls.jsonl",
    ]
    server.environment = ["PATH": "/usr/bin:/bin"]
    server.standardOutput = serverOutput
    try server.run()
    guard PrivateBus.readLine(serverOutput) == "READY" else {
      throw DaemonTestError("the fake notification server did not start")
    }
  }

  /// Tests/notifications/fake-notification-server.py in the checkout.
  static var script: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "Tests/notifications/fake-notification-server.py")
  }

  deinit {
    for process in [server, bus] where process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}
