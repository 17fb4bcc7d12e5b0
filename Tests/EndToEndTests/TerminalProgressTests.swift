import Foundation
import LocalAuthCommandLine
import LocalAuthTestSupport
import Synchronization
import Testing

/// localauthctl's progress indicator: only on a terminal that can erase a line, never with
/// `--json`; and no colour in any output.
@Suite(.serialized) struct TerminalProgressTests {
  @Test(arguments: [
    (true, ["TERM": "xterm-256color"], true),
    (true, ["TERM": "xterm", "NO_COLOR": "1"], true),
    (true, ["TERM": "dumb"], false),
    (true, [:], false),
    (true, ["TERM": ""], false),
    (false, ["TERM": "xterm"], false),
  ])
  func theIndicatorNeedsATerminalThatIsNotDumb(
    isTerminal: Bool, environment: [String: String], shown: Bool
  ) {
    #expect(
      TerminalProgress.isShown(standardErrorIsTerminal: isTerminal, environment: environment)
        == shown)
  }

  /// Runs `localauthctl ARGUMENTS` in process with a terminal sink; returns what reached the
  /// terminal and standard output.
  func run(_ arguments: [String], socket: String) async -> (terminal: String, output: String) {
    let terminal = Mutex("")
    let output = Mutex("")
    let runner = CommandRunner(
      standardOutput: { line in output.withLock { $0 += line + "\n" } },
      standardError: { line in output.withLock { $0 += line + "\n" } },
      terminal: { text in terminal.withLock { $0 += text } })
    _ = await runner.run(["--socket", socket] + arguments)
    return (terminal.withLock { $0 }, output.withLock { $0 })
  }

  @Test func jsonDrawsNoIndicatorAndNothingIsColoured() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let plain = await run(["evaluate", "owner", "--reason", "terminal"], socket: daemon.socketPath)
    #expect(plain.terminal.contains("\r"), "the indicator is drawn on a terminal")
    #expect(plain.output.contains("success"))
    let json = await run(
      ["--json", "evaluate", "owner", "--reason", "json"], socket: daemon.socketPath)
    #expect(json.terminal.isEmpty, "--json draws no indicator")
    #expect(json.output.contains("\"requestID\""))
    #expect(!plain.output.contains("\u{1B}") && !json.output.contains("\u{1B}"), "no colour")
  }
}
