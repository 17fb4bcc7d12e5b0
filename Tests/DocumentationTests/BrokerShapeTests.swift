import Foundation
import Testing

/// The broker is split by what it owns (issue 30): the `Broker` actor is glue over components that
/// keep their own state, so it holds at most twelve stored properties, and no file of the core
/// (Sources/LocalAuthBroker) is over 300 lines. Planted breaches show the check fails.
@Suite struct BrokerShapeTests {
  static let root = DocumentationDriftTests.root
  static let core = "Sources/LocalAuthBroker"
  static let maxStoredProperties = 12
  static let maxLines = 300

  @Test func theBrokerHoldsAtMostTwelveStoredProperties() throws {
    let text = try String(
      contentsOfFile: Self.root + "/" + Self.core + "/Broker.swift", encoding: .utf8)
    let stored = BrokerShape.storedProperties(of: "Broker", in: text)
    #expect(stored.count >= 5, "Broker.swift's actor was read: \(stored)")
    #expect(
      stored.count <= Self.maxStoredProperties,
      "Broker has \(stored.count) stored properties (\(stored)); a new field goes into the component that owns it"
    )
  }

  @Test func noCoreFileIsOverThreeHundredLines() throws {
    let directory = Self.root + "/" + Self.core
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".swift") }
    #expect(files.count > 40, "the core's files were read")
    var long: [String] = []
    for file in files.sorted() {
      let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
      if BrokerShape.lineCount(text) > Self.maxLines {
        long.append("\(file): \(BrokerShape.lineCount(text))")
      }
    }
    #expect(long == [], "split these by what they do")
  }

  /// Thirteen stored properties are one too many; computed ones, nested types' and functions'
  /// locals do not count.
  @Test func aPlantedThirteenthStoredPropertyIsFound() {
    var body = (1...13).map { "  var field\($0) = \($0)\n" }.joined()
    body += "  /// A computed one.\n  public nonisolated var version: String { services.version }\n"
    body += "  var total: Int {\n    let x = 1\n    return x\n  }\n"
    body += "  struct Inner {\n    let a: Int\n    var b = 2\n  }\n"
    body += "  func f() {\n    let local = 1\n    var other = local\n    other += 1\n  }\n"
    body += "  @exclusivity(unchecked) public internal(set) var configuration: Configuration\n"
    body += "  nonisolated let services: Services  // a comment { with a brace\n"
    body += "  var observed: Int = 0 {\n    didSet { print(\"{\") }\n  }\n"
    body += "  var watched: Int {\n    willSet {}\n  }\n"
    body += "  static let shared = 1\n"
    let source = "import X\n\npublic actor Broker {\n" + body + "}\n\nextension Broker {}\n"
    let stored = BrokerShape.storedProperties(of: "Broker", in: source)
    #expect(
      stored == (1...13).map { "field\($0)" } + [
        "configuration", "services", "observed", "watched",
      ])
    #expect(stored.count > Self.maxStoredProperties)
  }

  /// A file of 301 lines is over the limit; one of 300 is not.
  @Test func aPlantedLongFileIsFound() {
    let atLimit = String(repeating: "let x = 1\n", count: 300)
    #expect(BrokerShape.lineCount(atLimit) == 300)
    #expect(BrokerShape.lineCount(atLimit + "let y = 2\n") == 301)
    #expect(BrokerShape.lineCount(atLimit + "let y = 2") == 301)
  }
}

/// Reads a Swift source's shape without a parser: the stored properties a type declares at its top
/// level, and a file's line count.
enum BrokerShape {
  /// The names of the stored properties declared at the top level of `class`/`actor`/`struct`
  /// `name`'s own declaration (extensions cannot hold any).
  static func storedProperties(of name: String, in source: String) -> [String] {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let opening = try! Regex("^\\s*(public |internal |final )*(actor|class|struct) \(name)\\b")
    guard let start = lines.firstIndex(where: { $0.contains(opening) }) else { return [] }
    let declaration = try! Regex(
      "^(?:@\\w+(?:\\([^)]*\\))? )*(?:(?:public|internal|private|fileprivate)(?:\\(set\\))? |nonisolated |static |lazy |weak |unowned )*(let|var) (\\w+)"
    )
    var depth = 0
    var names: [String] = []
    for index in start..<lines.count {
      let code = withoutCommentsAndStrings(lines[index])
      if depth == 1, !code.contains("static "),
        let match = code.trimmingCharacters(in: .whitespaces).firstMatch(of: declaration)
      {
        // A `{` with no `=` before it opens a computed property's body, unless the body holds
        // observers (on this line or the next).
        let rest = code[match.range.upperBound...]
        let next = index + 1 < lines.count ? lines[index + 1] : ""
        let brace = rest.firstIndex(of: "{")
        let opensBody = brace.map { brace in rest.firstIndex(of: "=").map { $0 > brace } ?? true }
        let observed = (rest + next).contains("didSet") || (rest + next).contains("willSet")
        if opensBody != true || observed { names.append(String(match.output[2].substring ?? "")) }
      }
      depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
      if depth == 0 && code.contains("}") { break }
    }
    return names
  }

  /// The source without `//` comments and string literals' contents (their braces are not code).
  static func withoutCommentsAndStrings(_ line: String) -> String {
    var out = ""
    var inString = false
    var previous: Character = " "
    for character in line {
      if inString {
        if character == "\"" && previous != "\\" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if character == "/" && previous == "/" {
        out.removeLast()
        break
      } else {
        out.append(character)
      }
      previous = character
    }
    return out
  }

  /// The number of lines, as `wc -l` counts them plus a last line without its newline.
  static func lineCount(_ text: String) -> Int {
    let newlines = text.filter { $0 == "\n" }.count
    return newlines + (text.isEmpty || text.hasSuffix("\n") ? 0 : 1)
  }
}
