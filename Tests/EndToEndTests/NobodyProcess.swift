import Foundation
import Glibc
import LocalAuthTestSupport

/// A Python script running as uid/gid 65534 (nobody) against the daemon's socket, for attacks by
/// another local user. It prints one JSON line when its attack is in place and keeps its
/// connections open until `finish()` closes its standard input.
final class NobodyProcess: @unchecked Sendable {
  // Used by one test at a time.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffered: [UInt8] = []

  /// Whether the test can switch users (root, setpriv and a system Python are present).
  static var isAvailable: Bool { OtherUserClient.isAvailable }

  /// Starts `script` (Python; `sys.argv[1]` is the socket path) as nobody.
  init(socket: String, script: String) throws {
    process.executableURL = URL(fileURLWithPath: OtherUserClient.setpriv)
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", OtherUserClient.python, "-c", script,
      socket,
    ]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  /// The next line the script prints (nil at its end or after `seconds`).
  func readLine(seconds: Double = 20) -> String? {
    let fd = output.fileHandleForReading.fileDescriptor
    let deadline = Date().addingTimeInterval(seconds * TestTimeout.scale)
    while Date() < deadline {
      if let newline = buffered.firstIndex(of: 0x0A) {
        let line = String(decoding: buffered[..<newline], as: UTF8.self)
        buffered.removeSubrange(...newline)
        return line
      }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) >= 0 else { return nil }
      if poller.revents == 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(fd, &chunk, chunk.count)
      if count <= 0 { return nil }
      buffered += chunk[0..<count]
    }
    return nil
  }

  /// Closes the script's input (it closes its connections and exits) and waits for it.
  func finish() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
