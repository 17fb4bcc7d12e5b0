import Foundation
import Testing

/// Every `@unchecked Sendable` in Sources says what guards it (issue 30): the comment right above
/// the declaration has a sentence "`@unchecked Sendable`: …" naming the lock, the loop or the rule
/// that stands in for the compiler's check.
@Suite struct UncheckedSendableTests {
  /// The declarations in a source text that conform `@unchecked Sendable` with no such sentence in
  /// the comment block above them ("line: declaration").
  static func unexplained(in text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var found: [String] = []
    for (index, line) in lines.enumerated() {
      let code = line.trimmingCharacters(in: .whitespaces)
      guard !code.hasPrefix("//"), code.contains("@unchecked Sendable") else { continue }
      var comment: [String] = []
      var above = index - 1
      while above >= 0 {
        let previous = lines[above].trimmingCharacters(in: .whitespaces)
        if previous.hasPrefix("//") {
          comment.insert(previous, at: 0)
        } else if !previous.hasPrefix("@") {
          break
        }
        above -= 1
      }
      if !comment.joined(separator: " ").contains("`@unchecked Sendable`:") {
        found.append("\(index + 1): \(code)")
      }
    }
    return found
  }

  @Test func everyUncheckedSendableSaysWhatGuardsIt() throws {
    let sources = DocumentationDriftTests.root + "/Sources"
    let files = try #require(FileManager.default.enumerator(atPath: sources))
    var checked = 0
    var findings: [String] = []
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
      if text.contains("@unchecked Sendable") { checked += 1 }
      findings += Self.unexplained(in: text).map { "Sources/\(file):\($0)" }
    }
    #expect(checked > 10, "the sources were read")
    #expect(findings == [], "say what guards it: a \"`@unchecked Sendable`: …\" sentence above")
  }

  @Test func aBareUncheckedSendableIsFound() {
    let bare = "/// A box.\nfinal class Box: @unchecked Sendable {\n  var value = 0\n}\n"
    #expect(Self.unexplained(in: bare) == ["2: final class Box: @unchecked Sendable {"])
    let explained =
      "/// A box. `@unchecked Sendable`: `value` is read and written under `lock`.\n"
      + "@usableFromInline\nfinal class Box: @unchecked Sendable {\n"
    #expect(Self.unexplained(in: explained) == [])
  }
}
