import Foundation
import Testing

/// The module map is the project's (issue 30): docs/module-map.json names every target's part and
/// the arrows that must never exist, and neither Package.swift's dependencies nor any target's
/// imports draw one. A planted breach shows the check fails.
@Suite struct ModuleMapTests {
  static let root = DocumentationDriftTests.root

  static func packageTargets() throws -> [(name: String, dependencies: [String], path: String)] {
    PackageArrows.targets(
      packageText: try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
  }

  @Test func everyTargetIsInExactlyOnePart() throws {
    let map = try ModuleMap.load(root: Self.root)
    let declared = try Self.packageTargets().map(\.name)
    #expect(declared.count > 35, "Package.swift's targets were read")
    let mapped = map.parts.values.flatMap { $0 }
    #expect(
      Set(declared) == Set(mapped), "docs/module-map.json names exactly Package.swift's targets")
    #expect(mapped.count == Set(mapped).count, "no target is in two parts")
    for rule in map.never {
      for part in [rule.from] + rule.to + rule.except where part != "*" {
        #expect(map.parts[part] != nil, "a rule names the unknown part \(part)")
      }
    }
  }

  @Test func packageDependenciesDrawNoForbiddenArrow() throws {
    let map = try ModuleMap.load(root: Self.root)
    let arrows = try Self.packageTargets().flatMap { target in
      target.dependencies.map { (target.name, $0, "Package.swift") }
    }
    #expect(arrows.count > 60)
    #expect(map.breaches(arrows) == [])
  }

  @Test func noTargetImportsAcrossAForbiddenArrow() throws {
    let map = try ModuleMap.load(root: Self.root)
    let known = map.partOfTarget
    var arrows: [(from: String, to: String, where: String)] = []
    for target in try Self.packageTargets() {
      let directory = Self.root + "/" + target.path
      guard let files = FileManager.default.enumerator(atPath: directory) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        for module in PackageArrows.imports(in: text) where known[module] != nil {
          // A test target's own sources may include a nested executable's (SystemdTests).
          if target.path != "Tests/SystemdTests" || !file.hasPrefix("ListenProbe/") {
            arrows.append((target.name, module, target.path + "/" + file))
          }
        }
      }
    }
    #expect(arrows.count > 300, "the sources' imports were read")
    #expect(map.breaches(arrows) == [])
  }

  /// The check fails on the breaches it exists for.
  @Test(
    arguments: [
      ("LocalAuthBroker", "LocalAuthServer"),
      ("LocalAuthBroker", "RightStore"),
      ("LocalAuthBroker", "SystemFacts"),
      ("LocalAuthProtocol", "Sensors"),
      ("LocalAuthProtocol", "LocalAuthConcurrency"),
      ("LocalAuthClient", "LocalAuthBroker"),
      ("LocalAuthCommandLine", "LocalAuthServer"),
      ("localauthd", "LocalAuthTestSupport"),
      ("Sensors", "LocalAuthBroker"),
    ])
  func aPlantedBreachIsFound(_ from: String, _ to: String) throws {
    let map = try ModuleMap.load(root: Self.root)
    #expect(map.breaches([(from, to, "planted")]).count == 1)
  }

  /// A planted import in a core source is read as the arrow it draws.
  @Test func aPlantedImportIsRead() {
    let source =
      "import LocalAuthProtocol\n@testable import LocalAuthServer\nimport struct RightStore.Owner  // x\n"
    #expect(
      PackageArrows.imports(in: source) == ["LocalAuthProtocol", "LocalAuthServer", "RightStore"])
  }

  /// Allowed arrows pass: the check is not simply refusing everything.
  @Test func theArrowsTheHouseIsBuiltOnPass() throws {
    let map = try ModuleMap.load(root: Self.root)
    let allowed = [
      ("LocalAuthServer", "LocalAuthBroker"), ("LocalAuthBroker", "RightsStorage"),
      ("RightStore", "RightsStorage"), ("LocalAuthBroker", "Sensors"),
      ("LocalAuthTestSupport", "LocalAuthBroker"), ("EndToEndTests", "LocalAuthTestSupport"),
    ]
    #expect(map.breaches(allowed.map { ($0.0, $0.1, "allowed") }) == [])
  }
}
