import Foundation
import LocalAuthCommandLine

/// localauthctl: control and observe localauthd. The work is in LocalAuthCommandLine.
@Sendable func writeOutput(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@Sendable func writeError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

@Sendable func writeTerminal(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}

let runner = CommandRunner(
  standardOutput: writeOutput, standardError: writeError,
  terminal: TerminalProgress.isShown(
    standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
    environment: ProcessInfo.processInfo.environment) ? writeTerminal : nil,
  cancelsOnInterrupt: true)
let status = await runner.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
