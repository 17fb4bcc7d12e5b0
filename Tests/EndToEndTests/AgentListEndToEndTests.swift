import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// One agent per scope and `agent.list` (issue 18) through the client library and `localauthctl`,
/// against the real daemon.
@Suite(.serialized)
struct AgentListEndToEndTests {
  @Test func aSecondAgentIsRefusedNamingTheFirstAndTheListShowsIt() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let first = LAPromptAgent(connection: daemon.connection())
    let (registration, _) = try await first.register()
    #expect(!registration.agent.isEmpty)
    let me = Int(getpid())

    // The library's second registration for the same scope is refused with the first's pid.
    do {
      _ = try await LAPromptAgent(connection: daemon.connection()).register()
      Issue.record("a second user-scope agent was registered")
    } catch let error as RPCError {
      #expect(error.code == .alreadyInProgress)
      #expect(error.data["reason"] == "agentExists")
      #expect(error.data["pid"] == .int(me))
    }
    let listed = try await first.list()
    #expect(listed.count == 1)
    #expect(listed.first?.pid == me)
    #expect(listed.first?.scope == "user")

    // localauthctl: the list in JSON and text, and the terminal agent's refusal naming the pid.
    let json = try runControlTool(["--json", "agent", "--list"], socket: daemon.socketPath)
    #expect(json.status == 0, "\(json.error)")
    let agents = try JSONParser.parse(Array(json.output.utf8)).objectValue?["agents"]?.arrayValue
    #expect(agents?.first?.objectValue?["pid"] == .int(me))
    let text = try runControlTool(["agent", "--list"], socket: daemon.socketPath)
    #expect(text.output.contains("PID") && text.output.contains("\(me)  user"), "\(text.output)")
    let refused = try runControlTool(["agent"], socket: daemon.socketPath)
    #expect(refused.status != 0)
    #expect(
      refused.error.contains("Another prompt agent (pid \(me)) already serves your user prompts"),
      "\(refused.error)")
  }
}
