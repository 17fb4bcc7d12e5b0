import CLocalAuthSystem
import Foundation
import Glibc
import Synchronization

/// A program running on a pseudo-terminal, so that it sees a real terminal (isatty, termios) while the test
/// types keystrokes into it and reads what it prints. Test support; one reader thread collects the output.
public final class PseudoTerminalProcess: Sendable {
  private let master: Int32
  private let process: Process
  private let output = OutputBuffer()

  /// Starts `executable` with `arguments` on a fresh pseudo-terminal (its stdin, stdout and stderr).
  public init(executable: String, arguments: [String], environment: [String: String]? = nil) throws
  {
    var name = [CChar](repeating: 0, count: 128)
    let master = las_open_pseudo_terminal(&name, name.count)
    guard master >= 0 else {
      throw DaemonTestError("cannot open a pseudo-terminal: \(String(cString: strerror(-master)))")
    }
    let path = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw DaemonTestError("cannot open the pseudo-terminal's other end") }
    self.master = master
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    self.process = process
    let output = self.output
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(master, &buffer, buffer.count)
        if count > 0 {
          output.bytes.withLock { $0.append(contentsOf: buffer[..<count]) }
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
    thread.start()
  }

  /// Everything the program printed so far.
  public var text: String { String(decoding: output.bytes.withLock { $0 }, as: UTF8.self) }

  /// Types bytes, as keystrokes.
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Waits until the output contains `needle` `count` times (bounded, so a broken program fails the test
  /// instead of hanging it); returns whether it did.
  @discardableResult
  public func waitFor(_ needle: String, count: Int = 1, seconds: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(seconds * TestTimeout.scale)
    while Date() < deadline {
      if text.components(separatedBy: needle).count - 1 >= count { return true }
      usleep(10_000)
    }
    return false
  }

  /// The program's pid.
  public var pid: Int32 { process.processIdentifier }

  /// Sends a signal to the program.
  public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Waits (bounded) for the program to exit; returns its status, or nil if it is still running.
  public func waitForExit(seconds: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds * TestTimeout.scale)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    return process.isRunning ? nil : process.terminationStatus
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    close(master)
  }
}

/// Bytes a reader thread collects.
final class OutputBuffer: Sendable {
  let bytes = Mutex<[UInt8]>([])
}

/// A Linux account made for one test (useradd) and removed after it (userdel). Needs root.
public final class TestAccount: Sendable {
  /// The account name.
  public let name: String
  /// Its uid.
  public let uid: UInt32
  /// Its primary gid.
  public let gid: UInt32

  /// Creates an account named `prefix` plus a random suffix, without a home directory.
  public init(prefix: String) throws {
    let name = "\(prefix)\(UInt32.random(in: 10_000...99_999))"
    let status = try TestAccount.run(
      "/usr/sbin/useradd", ["-M", "-U", "-s", "/usr/sbin/nologin", name])
    guard status == 0, let entry = getpwnam(name) else {
      throw DaemonTestError("useradd \(name) failed with status \(status)")
    }
    self.name = name
    uid = entry.pointee.pw_uid
    gid = entry.pointee.pw_gid
  }

  /// The command line that runs a program as this account (setpriv, with no supplementary groups).
  public func command(_ executable: String, _ arguments: [String]) -> (String, [String]) {
    (
      "/usr/bin/setpriv",
      ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable] + arguments
    )
  }

  /// Runs a program as this account and returns its status and combined output.
  public func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let (launcher, full) = command(executable, arguments)
    return try runCapturing(launcher, full)
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit { _ = try? TestAccount.run("/usr/sbin/userdel", [name]) }
}
