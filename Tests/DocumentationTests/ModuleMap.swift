import Foundation

/// docs/module-map.json read: the parts, the target each belongs to, and the arrows that must
/// never exist. `breaches` finds the forbidden arrows among the ones a package draws.
struct ModuleMap {
  /// One forbidden arrow: from a part (or "*") to parts (or "*"), unless the source is excepted.
  struct Rule {
    /// The part the arrow leaves, or "*".
    var from: String
    /// The parts it must not reach, or ["*"] for any other part.
    var to: [String]
    /// Source parts the rule does not cover (for a "*" source).
    var except: [String]
    /// Why the arrow must not exist.
    var why: String
  }

  /// Each part's targets.
  var parts: [String: [String]]
  /// The forbidden arrows.
  var never: [Rule]

  /// Every target's part.
  var partOfTarget: [String: String] {
    var result: [String: String] = [:]
    for (part, targets) in parts { for target in targets { result[target] = part } }
    return result
  }

  /// The map in the repository.
  static func load(root: String) throws -> ModuleMap {
    let data = try Data(contentsOf: URL(fileURLWithPath: root + "/docs/module-map.json"))
    return try parse(data)
  }

  /// A map from its JSON text.
  static func parse(_ data: Data) throws -> ModuleMap {
    guard let top = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let partObjects = top["parts"] as? [String: [String: Any]],
      let rules = top["never"] as? [[String: Any]]
    else { throw MapError("docs/module-map.json needs \"parts\" and \"never\"") }
    var parts: [String: [String]] = [:]
    for (name, part) in partObjects {
      guard let targets = part["targets"] as? [String] else {
        throw MapError("part \(name) has no \"targets\" list")
      }
      parts[name] = targets
    }
    let never = try rules.map { rule -> Rule in
      guard let from = rule["from"] as? String, let why = rule["why"] as? String else {
        throw MapError("a rule needs \"from\" and \"why\"")
      }
      let to = (rule["to"] as? [String]) ?? (rule["to"] as? String).map { [$0] } ?? []
      return Rule(from: from, to: to, except: rule["except"] as? [String] ?? [], why: why)
    }
    return ModuleMap(parts: parts, never: never)
  }

  /// Whether an arrow between two parts is forbidden, and the rule that says so.
  func rule(forbidding from: String, _ to: String) -> Rule? {
    guard from != to else { return nil }
    return never.first { rule in
      (rule.from == "*" || rule.from == from) && !rule.except.contains(from)
        && (rule.to.contains("*") || rule.to.contains(to))
    }
  }

  /// The forbidden arrows among `arrows` (target → target, with where each was drawn), as lines a
  /// person reads; targets the map does not know are reported too.
  func breaches(_ arrows: [(from: String, to: String, where: String)]) -> [String] {
    let parts = partOfTarget
    var found: [String] = []
    for arrow in arrows {
      guard let from = parts[arrow.from], let to = parts[arrow.to] else {
        found.append("\(arrow.where): \(arrow.from) → \(arrow.to): a target the map does not name")
        continue
      }
      if let rule = rule(forbidding: from, to) {
        found.append(
          "\(arrow.where): \(arrow.from) (\(from)) → \(arrow.to) (\(to)) must not exist: \(rule.why)"
        )
      }
    }
    return found
  }

  /// A map that cannot be read.
  struct MapError: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
    init(_ description: String) { self.description = description }
  }
}

/// The arrows Package.swift and the sources draw, read from the text (no build needed).
enum PackageArrows {
  /// Every target Package.swift declares, with its dependencies and its source directory.
  static func targets(packageText: String) -> [(name: String, dependencies: [String], path: String)]
  {
    let declaration = try! NSRegularExpression(
      pattern:
        #"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)"#
    )
    let text = packageText as NSString
    return declaration.matches(in: packageText, range: NSRange(location: 0, length: text.length))
      .map { match in
        let kind = text.substring(with: match.range(at: 1))
        let name = text.substring(with: match.range(at: 2))
        let rest = text.substring(with: match.range(at: 3))
        var dependencies: [String] = []
        if let list = rest.range(of: #"dependencies:\s*\[([^\]]*)\]"#, options: .regularExpression)
        {
          let quoted = try! NSRegularExpression(pattern: #""([^"]+)""#)
          let part = String(rest[list]) as NSString
          dependencies = quoted.matches(
            in: part as String, range: NSRange(location: 0, length: part.length)
          )
          .map { part.substring(with: $0.range(at: 1)) }
        }
        var path = (kind == "testTarget" ? "Tests/" : "Sources/") + name
        if let explicit = rest.range(of: #"path:\s*"([^"]+)""#, options: .regularExpression) {
          path = String(rest[explicit]).components(separatedBy: "\"")[1]
        }
        return (name, dependencies, path)
      }
  }

  /// The modules a Swift source imports (`import X`, `@testable import X`, `import struct X.Y`).
  static func imports(in source: String) -> [String] {
    source.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
      guard words.first == "import", words.count >= 2 else { return nil }
      let kinds: Set = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
      let module = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
      return String(module.split(separator: ".")[0])
    }
  }
}
