import LocalAuthClient
import LocalAuthProtocol
import Synchronization
import Testing

@testable import LocalAuthCommandLine

/// localauthctl's exit statuses as `--help` defines them, and one `error:` prefix (issue 29, item 7).
@Suite struct ExitStatusTests {
  @Test(arguments: [
    // `sim face MATCHH`: the daemon refuses the script's params.
    (
      RPCError(.invalidParams, "unknown command MATCHH") as any Error,
      LocalAuthCommandLine.ExitStatus.usage
    ),
    // `cancel not-a-uuid`: a name the daemon does not know.
    (RPCError(.notFound, "No queued or running evaluation not-a-uuid"), .usage),
    (SSHAgentListenError(description: "the socket's directory /x does not exist"), .usage),
    (LAError(.userCancel, message: "Canceled by the user."), .failure),
    (RPCError(.queueFull), .failure),
    (ConnectionError(socketPath: "/x", errno: -2), .cannotConnect),
  ])
  func eachErrorEndsWithTheStatusHelpDefines(
    error: any Error, status: LocalAuthCommandLine.ExitStatus
  ) {
    #expect(LocalAuthCommandLine.ExitStatus(for: error) == status)
  }

  @Test func helpDefinesTheRefusedRequestAsAUsageError() {
    #expect(Usage.overview.contains("2 usage error (also a request the daemon refuses as wrong"))
  }

  @Test func anErrorWithoutANameIsPrefixedOnce() {
    let text = OutputFormatter(json: false).failure(
      SSHAgentListenError(description: "the socket's directory /x does not exist"))
    #expect(text == "error: the socket's directory /x does not exist")
  }

  /// `replay` of a file it cannot read says why (issue 29, item 9).
  @Test func replayOfAFileItCannotReadGivesTheReason() async {
    let errors = Mutex<[String]>([])
    let runner = CommandRunner(
      standardOutput: { _ in }, standardError: { line in errors.withLock { $0.append(line) } })
    #expect(
      await runner.run(["--socket", "/nonexistent/socket", "replay", "/nonexistent"]) == .usage)
    #expect(
      errors.withLock { $0 }.first
        == "localauthctl: cannot read the trace file /nonexistent: No such file or directory")
  }

  @Test func sshKeyDoesNotOfferImportAndRefusesItAsAUsageError() async {
    let errors = Mutex<[String]>([])
    let runner = CommandRunner(
      standardOutput: { line in errors.withLock { $0.append(line) } },
      standardError: { line in errors.withLock { $0.append(line) } })
    #expect(await runner.run(["--socket", "/nonexistent/socket", "ssh-key"]) == .usage)
    let listed = errors.withLock { $0 }.joined(separator: "\n")
    #expect(listed.contains("ssh-key needs ACTION (create, list, delete, public)"))
    errors.withLock { $0.removeAll() }
    #expect(await runner.run(["--socket", "/nonexistent/socket", "ssh-key", "import"]) == .usage)
    #expect(errors.withLock { $0 }.joined().contains("importing keys is refused"))
    #expect(!Usage.help(for: "ssh-key").contains("import   "))
  }
}
