import LocalAuthClient
import LocalAuthProtocol
import Testing

@testable import LocalAuthCommandLine

/// `localauthctl agent --list` and the terminal agent's refusal when another agent serves (issue 18).
@Suite struct AgentListTests {
  @Test func parsesTheListAndRefusesItWithAScope() throws {
    #expect(try CommandParser.parse(["agent", "--list"]).command == .agentList(user: nil))
    #expect(
      try CommandParser.parse(["agent", "--list", "--user", "bob"]).command
        == .agentList(user: "bob"))
    #expect(throws: UsageError.self) { try CommandParser.parse(["agent", "--list", "--session"]) }
    #expect(throws: UsageError.self) {
      try CommandParser.parse(["agent", "--list", "--process", "42"])
    }
  }

  @Test func listsAgentsAsATableAndAsJSON() throws {
    let agents = [
      LAAgentInfo(ListedAgent(json: ["pid": 4711, "scope": "user", "since": 1_700_000_000])),
      LAAgentInfo(
        ListedAgent(json: ["pid": 4712, "scope": "session", "session": "3", "since": 0])),
      LAAgentInfo(
        ListedAgent(json: ["pid": 4713, "scope": "process", "process": 99, "since": 86_399])),
    ]
    #expect(
      OutputFormatter(json: false).agents(agents) == """
        PID   SCOPE    SERVES      SINCE
        4711  user     -           2023-11-14 22:13:20 UTC
        4712  session  session 3   1970-01-01 00:00:00 UTC
        4713  process  process 99  1970-01-01 23:59:59 UTC
        """)
    #expect(OutputFormatter(json: false).agents([]) == "no prompt agent registered")
    let parsed = try JSONParser.parse(Array(OutputFormatter(json: true).agents(agents).utf8))
    let list = parsed.objectValue?["agents"]?.arrayValue
    #expect(list?.count == 3)
    #expect(list?[1].objectValue?["session"] == "3")
    #expect(list?[0].objectValue?["session"] == nil)
    #expect(list?[2].objectValue?["process"] == 99)
  }

  @Test func theTerminalAgentNamesTheAgentThatServes() {
    let refusal = RPCError(
      .alreadyInProgress, "A prompt agent already serves this scope (pid 4711); stop it first.",
      data: ["reason": "agentExists", "pid": 4711, "scope": ["kind": "session", "session": "3"]])
    let named = TerminalAgent.agentExists(refusal)
    #expect(named.message.contains("pid 4711"))
    #expect(named.message.contains("session prompts"))
    #expect(named.message.contains("agent --list"))
    #expect(named.code == .alreadyInProgress)
  }
}
