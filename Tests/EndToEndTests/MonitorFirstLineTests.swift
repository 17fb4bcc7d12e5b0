import Foundation
import Glibc
import LocalAuthTestSupport
import Testing

/// `localauthctl monitor` says at once that it is following the daemon, before any event.
@Suite struct MonitorFirstLineTests {
  @Test func monitorPrintsAFirstLineBeforeAnyEvent() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(RunningDaemon.controlPath))
    process.arguments = ["--socket", daemon.socketPath, "monitor"]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = Pipe()
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    // No evaluation runs: the only thing to read is the first line (or nothing, on failure).
    // Read without blocking, so a monitor that prints nothing fails the test at the deadline.
    let descriptor = error.fileHandleForReading.fileDescriptor
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    var seen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    // A deadline for a loaded machine (the whole suite runs in parallel), not a speed limit.
    _ = await eventually(within: .seconds(60), pace: .polling(.milliseconds(50))) {
      let count = read(descriptor, &buffer, buffer.count)
      if count > 0 { seen += buffer[0..<count] }
      return seen.contains(UInt8(ascii: "\n")) || !process.isRunning
    }
    let text = String(decoding: seen, as: UTF8.self)
    #expect(
      text.hasPrefix("localauthctl monitor: following localauthd at \(daemon.socketPath)"),
      "running: \(process.isRunning), printed: \(text)")
  }
}
