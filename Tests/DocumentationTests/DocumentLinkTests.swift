import Foundation
import Testing

/// The README links every guide in docs/, and every relative link in the README and the guides
/// reaches an existing file and, with a `#fragment`, an existing heading there (GitHub's anchors),
/// so moving a section cannot leave a dead link behind.
@Suite struct DocumentLinkTests {
  /// The README and every Markdown file in docs/, relative to the repository's root.
  static let documents: [String] = {
    let guides =
      (try? FileManager.default.contentsOfDirectory(
        atPath: DocumentationDriftTests.root + "/docs")) ?? []
    return ["README.md"] + guides.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as '-'.
  static func anchor(_ heading: String) -> String {
    let kept = heading.lowercased().unicodeScalars.filter {
      CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
    }
    return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
  }

  /// The anchors of a Markdown text's headings (not of `#` lines inside code blocks).
  static func anchors(_ text: String) -> Set<String> {
    var result: Set<String> = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      let title = line.drop(while: { $0 == "#" })
      guard title.hasPrefix(" ") else { continue }
      result.insert(anchor(title.trimmingCharacters(in: .whitespaces)))
    }
    return result
  }

  /// The targets of a Markdown text's `[text](target)` links, except web and mail addresses.
  static func relativeLinks(_ text: String) -> [String] {
    let regex = try! NSRegularExpression(pattern: "\\]\\(([^)\\s]+)\\)")
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
      let target = String(text[Range($0.range(at: 1), in: text)!])
      return target.contains("://") || target.hasPrefix("mailto:") ? nil : target
    }
  }

  /// The README is a guide a newcomer reads in ten minutes; references belong in docs/.
  @Test func theReadmeIsAShortGuide() {
    let lines = DocumentationDriftTests.readme.filter { $0 == "\n" }.count
    #expect(lines <= 400, "README.md has \(lines) lines; move references to docs/")
  }

  @Test func thereAreGuides() {
    #expect(Self.documents.count > 10, "docs/ holds \(Self.documents)")
  }

  @Test(arguments: documents.filter { $0 != "README.md" })
  func theReadmeLinksTheGuide(guide: String) {
    let linked = Self.relativeLinks(DocumentationDriftTests.readme).contains {
      $0.split(separator: "#").first.map(String.init) == guide
    }
    #expect(linked, "README.md does not link \(guide)")
  }

  @Test(arguments: documents)
  func everyLinkArrives(document: String) {
    let text = DocumentationDriftTests.read(document)
    let directory = URL(fileURLWithPath: DocumentationDriftTests.root + "/" + document)
      .deletingLastPathComponent()
    for link in Self.relativeLinks(text) {
      let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let path = String(parts[0])
      let file =
        path.isEmpty
        ? URL(fileURLWithPath: DocumentationDriftTests.root + "/" + document)
        : directory.appendingPathComponent(path).standardizedFileURL
      let exists = FileManager.default.fileExists(atPath: file.path)
      #expect(exists, "\(document): \(link) points to no file")
      guard exists, parts.count == 2 else { continue }
      let target = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      let found = Self.anchors(target).contains(String(parts[1]))
      #expect(found, "\(document): \(link) points to no heading")
    }
  }
}
