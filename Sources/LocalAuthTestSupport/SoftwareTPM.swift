import Foundation

/// A TPM for one test: `swtpm socket --tpm2` on two free ports of 127.0.0.1 (commands on `port`,
/// control on `port + 1`) with its state in a directory of its own, stopped by `stop()` or on
/// deinit. Its `tcti` is what tss2 and tpm2-tools (`TPM2TOOLS_TCTI`) take. Use from one task.
public final class SoftwareTPM {
  /// Where Debian's swtpm package puts the program.
  public static let swtpmPath = "/usr/bin/swtpm"
  /// Whether swtpm is installed (`make test-deps`); suites that need it are enabled only then.
  public static var isInstalled: Bool { access(swtpmPath, X_OK) == 0 }

  /// The command port; the control port is the next one.
  public let port: Int
  /// The TPM's state (its seeds: a new directory is a new TPM).
  public let stateDirectory: String
  private var process: Process?

  /// The TCTI string of this TPM (tss2's swtpm TCTI).
  public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

  /// Starts swtpm with its state in `stateDirectory` (a fresh temporary directory when nil: a TPM
  /// nobody used) on free ports, and waits until it accepts connections.
  public init(stateDirectory: String? = nil) throws {
    let directory =
      stateDirectory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "swtpm-\(UUID().uuidString)"
      ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    self.stateDirectory = directory
    for _ in 0..<20 {
      let candidate = Int.random(in: 20_000...60_000) & ~1
      let started = Process()
      started.executableURL = URL(fileURLWithPath: Self.swtpmPath)
      started.arguments = [
        "socket", "--tpm2", "--server", "type=tcp,port=\(candidate),bindaddr=127.0.0.1",
        "--ctrl", "type=tcp,port=\(candidate + 1),bindaddr=127.0.0.1",
        "--flags", "not-need-init,startup-clear", "--tpmstate", "dir=\(directory)",
      ]
      started.standardOutput = FileHandle.nullDevice
      started.standardError = FileHandle.nullDevice
      try started.run()
      // Both listeners: the TCTI connects to the command port and to the control port.
      if Self.waitForListener(port: candidate + 1, while: started),
        Self.waitForListener(port: candidate, while: started)
      {
        port = candidate
        process = started
        return
      }
      started.terminate()
      started.waitUntilExit()
    }
    throw SoftwareTPMError("swtpm did not start on any of 20 port pairs")
  }

  deinit { stop() }

  /// Stops swtpm and waits for it: the TPM "goes away". Its state stays on disk. SIGTERM first;
  /// swtpm notices it only between commands, so one with a client still connected gets SIGKILL
  /// after a second.
  public func stop() {
    guard let process else { return }
    if process.isRunning { process.terminate() }
    for _ in 0..<100 where process.isRunning { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    self.process = nil
  }

  /// Runs a tpm2-tools program against this TPM; its status and output.
  public func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String)
  {
    setenv("TPM2TOOLS_TCTI", tcti, 1)
    return try runCapturing("/usr/bin/\(name)", arguments)
  }

  /// The handles of transient objects loaded in the TPM now (`tpm2_getcap handles-transient`).
  public func transientHandles() throws -> [String] {
    let (status, output) = try tool("tpm2_getcap", ["handles-transient"])
    guard status == 0 else { throw SoftwareTPMError("tpm2_getcap failed: \(output)") }
    return output.split(separator: "\n").map { String($0) }.filter { $0.hasPrefix("- ") }
  }

  /// Waits up to 5 s for a listener of swtpm's on 127.0.0.1:`port` (a connection is made and closed
  /// at once: the kernel queues the TCTI's own behind it), giving up when `process` exits.
  private static func waitForListener(port: Int, while process: Process) -> Bool {
    for _ in 0..<500 {
      guard process.isRunning else { return false }
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(socket)
      if connected { return true }
      usleep(10_000)
    }
    return false
  }
}

/// Why a software TPM could not be started or asked.
public struct SoftwareTPMError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// The error with this text.
  public init(_ description: String) { self.description = description }
}
