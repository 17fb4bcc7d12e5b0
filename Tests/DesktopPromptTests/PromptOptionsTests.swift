import DesktopPrompt
import Testing

/// localauthd-prompt's command line.
@Suite struct PromptOptionsTests {
  @Test func theDefaultIsTheSessionScope() throws {
    let options = try PromptOptions(arguments: [])
    #expect(options.scope == .session && options.socketPath == nil && !options.help)
  }

  @Test func scopeSocketAndHelpParse() throws {
    let options = try PromptOptions(arguments: ["--scope", "user", "--socket", "/tmp/s", "--help"])
    #expect(options.scope == .user && options.socketPath == "/tmp/s" && options.help)
  }

  @Test(arguments: [["--scope"], ["--scope", "process"], ["--socket"], ["--bogus"]])
  func aWrongCommandLineIsRefused(_ arguments: [String]) {
    #expect(throws: PromptUsageError.self) { try PromptOptions(arguments: arguments) }
  }

  @Test func theHelpNamesEveryOption() {
    for option in ["--scope session", "--scope user", "--socket PATH", "--version", "--help"] {
      #expect(PromptOptions.usage.contains(option))
    }
  }
}
