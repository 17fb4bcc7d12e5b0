import Foundation
import Sensors
import Testing

/// The closed retry vocabulary is the same in the code, the drivers' guide, the exec protocol's
/// document and the PAM module's table of words it shows: a reason added in one place only fails here.
@Suite struct RetryReasonDriftTests {
  static let driversGuide = DocumentationDriftTests.read("docs/drivers.md")
  static let driverProtocol = DocumentationDriftTests.read("docs/driver-protocol.md")
  static let pamModule = DocumentationDriftTests.read("pam/prompt.c")

  @Test(arguments: RetryReason.allCases)
  func everyReasonIsDocumentedAndShownInWords(_ reason: RetryReason) {
    #expect(DocumentationDriftTests.mentions(Self.driversGuide, reason.rawValue))
    #expect(DocumentationDriftTests.mentions(Self.driverProtocol, reason.rawValue))
    #expect(Self.pamModule.contains("{\"\(reason.rawValue)\", \""), "pam/prompt.c retry_text")
  }

  @Test func thePamModuleKnowsNoOtherWord() {
    let entries = Self.pamModule.components(separatedBy: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix("{\"")
    }
    #expect(entries.count == RetryReason.allCases.count, "\(entries)")
  }
}
