import Foundation
import LocalAuthCommandLine
import LocalAuthServer
import Testing

/// The documents name every localauthctl command and option (the README's guide to
/// localauthctl), every localauthd option and every configuration key (docs/configuration.md),
/// and the manual pages name them all too. The lists come from the code, so a new command,
/// option or key without documentation fails here.
@Suite struct DocumentationDriftTests {
  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  static func read(_ relativePath: String) -> String {
    (try? String(contentsOfFile: root + "/" + relativePath, encoding: .utf8)) ?? ""
  }

  static let readme = read("README.md")
  static let configurationGuide = read("docs/configuration.md")
  static let localauthctlPage = read("man/localauthctl.1.scd")
  static let localauthdPage = read("man/localauthd.8.scd")
  static let configurationPage = read("man/localauthd.conf.5.scd")

  /// Whether `word` occurs in `text` not as part of a longer name (letters, digits, '-', '_').
  static func mentions(_ text: String, _ word: String) -> Bool {
    var searchStart = text.startIndex
    while let found = text.range(of: word, range: searchStart..<text.endIndex) {
      let before =
        found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
      let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
      let isNamePart: (Character?) -> Bool = { c in
        guard let c else { return false }
        return c.isLetter || c.isNumber || c == "-" || c == "_"
      }
      if !isNamePart(before) && !isNamePart(after) { return true }
      searchStart = found.upperBound
    }
    return false
  }

  /// The `--options` in localauthd's usage text.
  static let daemonOptions: [String] = {
    let regex = try! NSRegularExpression(pattern: "--[a-z][a-z-]*")
    let usage = DaemonOptions.usage
    let matches = regex.matches(in: usage, range: NSRange(usage.startIndex..., in: usage))
    var seen: [String] = []
    for match in matches {
      let option = String(usage[Range(match.range, in: usage)!])
      if !seen.contains(option) { seen.append(option) }
    }
    return seen
  }()

  @Test func theDocumentsExist() {
    for (name, text): (String, String) in [
      ("README.md", Self.readme), ("docs/configuration.md", Self.configurationGuide),
      ("localauthctl.1.scd", Self.localauthctlPage),
      ("localauthd.8.scd", Self.localauthdPage), ("localauthd.conf.5.scd", Self.configurationPage),
    ] {
      let count = text.count
      #expect(count > 1000, "\(name) missing or empty")
    }
    #expect(Self.daemonOptions.contains("--check-config"))
  }

  @Test(arguments: CommandParser.subcommands)
  func everyLocalauthctlCommandIsDocumented(command: String) {
    let inReadme = Self.mentions(Self.readme, command)
    let inPage = Self.localauthctlPage.contains("*\(command)*")
    #expect(inReadme, "README.md does not name the command \(command)")
    #expect(inPage, "localauthctl.1.scd does not name the command \(command)")
  }

  @Test(arguments: CommandParser.longOptions)
  func everyLocalauthctlOptionIsDocumented(option: String) {
    let inReadme = Self.mentions(Self.readme, option)
    let inPage = Self.localauthctlPage.contains("*\(option)*")
    #expect(inReadme, "README.md does not name \(option)")
    #expect(inPage, "localauthctl.1.scd does not name \(option)")
  }

  @Test(arguments: daemonOptions)
  func everyLocalauthdOptionIsDocumented(option: String) {
    let inGuide = Self.mentions(Self.configurationGuide, option)
    let inPage = Self.localauthdPage.contains("*\(option)*")
    #expect(inGuide, "docs/configuration.md does not name \(option)")
    #expect(inPage, "localauthd.8.scd does not name \(option)")
  }

  @Test(
    arguments: ConfigurationKeys.broker + ConfigurationKeys.diagnostics + ConfigurationKeys.sensor
      + ConfigurationKeys.appID + ConfigurationKeys.keys + ConfigurationKeys.login)
  func everyConfigurationKeyIsDocumented(key: String) {
    let inGuide = Self.configurationGuide.contains("`\(key)=`")
    let inPage = Self.configurationPage.contains("*\(key)=*")
    #expect(inGuide, "docs/configuration.md does not name \(key)=")
    #expect(inPage, "localauthd.conf.5.scd does not name \(key)=")
  }
}

/// The bash and zsh completion offer every command, option and short policy name the parser
/// knows.
@Suite struct CompletionDriftTests {
  static let bash = DocumentationDriftTests.read("completion/localauthctl.bash")
  static let zsh = DocumentationDriftTests.read("completion/_localauthctl")

  @Test(
    arguments: CommandParser.subcommands + CommandParser.longOptions
      + PolicyNames.short.map(\.0))
  func bothShellsOfferIt(word: String) {
    let inBash = DocumentationDriftTests.mentions(Self.bash, word)
    let inZsh = DocumentationDriftTests.mentions(Self.zsh, word)
    #expect(inBash, "completion/localauthctl.bash does not offer \(word)")
    #expect(inZsh, "completion/_localauthctl does not offer \(word)")
  }
}
