import FoundationEssentials
import Glibc
import LocalAuthCommandLine

/// localauthctl: control and observe localauthd. The work is in LocalAuthCommandLine.
/// Writes all of `text` to a file descriptor (write(2), retrying EINTR and short writes).
@Sendable func writeAll(_ fd: Int32, _ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes {
      write(fd, $0.baseAddress! + offset, $0.count - offset)
    }
    if written < 0, errno == EINTR { continue }
    if written <= 0 { return }
    offset += written
  }
  bytes.removeAll()
}

@Sendable func writeOutput(_ line: String) { writeAll(STDOUT_FILENO, line + "\n") }

@Sendable func writeError(_ line: String) { writeAll(STDERR_FILENO, line + "\n") }

@Sendable func writeTerminal(_ text: String) { writeAll(STDERR_FILENO, text) }

let runner = CommandRunner(
  standardOutput: writeOutput, standardError: writeError,
  terminal: TerminalProgress.isShown(
    standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
    environment: ProcessInfo.processInfo.environment) ? writeTerminal : nil,
  cancelsOnInterrupt: true)
let status = await runner.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
