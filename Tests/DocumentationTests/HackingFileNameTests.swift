import Foundation
import Testing

/// docs/hacking.md's job tables and walkthroughs name files (`Broker+Scheduling.swift`,
/// `requests.c`, …); every name must be a file of the tree, so a split or a rename that leaves the
/// guide behind fails `make check`.
@Suite struct HackingFileNameTests {
  static let root = DocumentationDriftTests.root

  /// The file names in a Markdown text's code spans: a name with an extension the tree holds.
  static func fileNames(in text: String) -> [String] {
    let regex = try! NSRegularExpression(
      pattern: "`([A-Za-z0-9_+./@-]+\\.(?:swift|c|h|mk|json|md|sh|pam|socket|service))`")
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
      String(text[Range($0.range(at: 1), in: text)!])
    }
  }

  /// Every file's path relative to the root and its last component (no build products, no git).
  static func treeFiles() -> (paths: Set<String>, names: Set<String>) {
    var paths: Set<String> = []
    var names: Set<String> = []
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
      if path.hasPrefix(".build") || path.hasPrefix(".git") || path.contains("/.build") {
        enumerator?.skipDescendants()
        continue
      }
      paths.insert(path)
      names.insert(URL(fileURLWithPath: path).lastPathComponent)
    }
    return (paths, names)
  }

  @Test func everyFileTheGuideNamesExists() {
    let named = Self.fileNames(in: DocumentationDriftTests.read("docs/hacking.md"))
    #expect(named.count > 40, "docs/hacking.md's file names were read")
    let tree = Self.treeFiles()
    let missing = named.filter { name in
      name.contains("/") ? !tree.paths.contains(name) : !tree.names.contains(name)
    }
    #expect(missing == [], "docs/hacking.md names files the tree does not have")
  }

  /// A name that is not in the tree is found; a name with a wildcard is not read as one.
  @Test func aPlantedMissingFileIsFound() {
    let text = "see `Broker+Gone.swift`, `Broker.swift`, `Broker+SSH*.swift` and `pam/requests.c`"
    #expect(
      Self.fileNames(in: text) == ["Broker+Gone.swift", "Broker.swift", "pam/requests.c"])
    let tree = Self.treeFiles()
    #expect(!tree.names.contains("Broker+Gone.swift"))
    #expect(tree.names.contains("Broker.swift") && tree.paths.contains("pam/requests.c"))
  }
}
