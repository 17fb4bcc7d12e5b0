import Foundation
import LocalAuthProtocol
import LocalAuthServer
import Testing

/// docs/protocol.md names every method and notification LocalAuthProtocol defines, every error
/// code with a name, and every limit key, so a method added to the code without its contract
/// fails here.
@Suite struct ProtocolDocumentTests {
  static let protocolDocument = DocumentationDriftTests.read("docs/protocol.md")

  /// The wire names ("context.evaluatePolicy", "agent.prompt") of the `static let` constants in
  /// Sources/LocalAuthProtocol, read from the sources so that a new constant is checked unaided.
  static let wireNames: [String] = {
    let directory = DocumentationDriftTests.root + "/Sources/LocalAuthProtocol"
    let regex = try! NSRegularExpression(
      pattern: "static let [A-Za-z0-9]+ = \"([a-z][A-Za-z]*\\.[a-z][A-Za-z]*)\"")
    var names: [String] = []
    let files = (FileManager.default.subpaths(atPath: directory) ?? []).filter {
      $0.hasSuffix(".swift")
    }
    for file in files.sorted() {
      let text = DocumentationDriftTests.read("Sources/LocalAuthProtocol/" + file)
      for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let name = String(text[Range(match.range(at: 1), in: text)!])
        if !names.contains(name) { names.append(name) }
      }
    }
    return names
  }()

  /// The `[Broker]` keys that are limits: what a client can reach and be refused at.
  static let limitKeys = ConfigurationKeys.broker.filter {
    $0.hasPrefix("Max") || $0.hasPrefix("Min") || $0 == "FrameLimit" || $0.hasPrefix("Output")
  }

  @Test func theNamesAreFound() {
    #expect(Self.wireNames.contains("context.evaluatePolicy"))
    #expect(Self.wireNames.contains("agent.prompt"))
    #expect(Self.wireNames.count >= 40, "only \(Self.wireNames)")
    #expect(Self.limitKeys.count >= 15, "only \(Self.limitKeys)")
  }

  @Test(arguments: wireNames)
  func everyMethodAndNotificationIsInTheProtocol(name: String) {
    let named = Self.protocolDocument.contains("`\(name)`")
    #expect(named, "docs/protocol.md does not name \(name)")
  }

  @Test(arguments: ErrorCode.allNamed)
  func everyErrorCodeIsInTheProtocol(code: ErrorCode) {
    let row = "| \(code.name) | \(code.rawValue) |"
    #expect(Self.protocolDocument.contains(row), "docs/protocol.md has no row \(row)")
  }

  @Test(arguments: limitKeys)
  func everyLimitIsInTheProtocol(key: String) {
    let named = Self.protocolDocument.contains("`\(key)=`")
    #expect(named, "docs/protocol.md does not name the limit \(key)=")
  }
}

/// docs/protocol.md names every method and notification of `MethodRegistry`, the list the
/// server routes by.
@Suite struct RegistryDocumentTests {
  @Test(arguments: MethodRegistry.methodNames + MethodRegistry.notificationNames)
  func everyRegisteredNameIsInTheProtocol(name: String) {
    let named = ProtocolDocumentTests.protocolDocument.contains("`\(name)`")
    #expect(named, "docs/protocol.md does not name \(name)")
  }
}
