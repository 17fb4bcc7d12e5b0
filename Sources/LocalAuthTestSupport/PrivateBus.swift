import Foundation

/// A dbus-daemon of a test's own (a session bus with a fake notification server, a system bus with
/// a fake logind), and the one-line handshakes of the fakes started on it. Stateless.
public enum PrivateBus {
  /// Runs `bus` as dbus-daemon on the configuration file `configFile`, returning once it listens
  /// (it printed its address).
  public static func run(_ bus: Process, configFile: String) throws {
    let output = Pipe()
    bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    bus.arguments = ["--config-file=\(configFile)", "--nofork", "--print-address=1"]
    bus.standardOutput = output
    bus.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try bus.run()
    guard readLine(output) != nil else { throw DaemonTestError("dbus-daemon did not start") }
  }

  /// The next line a child wrote to `pipe` (READY, OK, …), without its newline; nil at the end.
  public static func readLine(_ pipe: Pipe) -> String? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(pipe.fileHandleForReading.fileDescriptor, &byte, 1) == 1 {
      if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
    return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
  }
}
