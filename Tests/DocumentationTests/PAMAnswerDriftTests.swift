import Foundation
import LocalAuthProtocol
import Testing

/// The member names and values pam_localauthd reads from the daemon's answers are the protocol
/// types' (issue 30): what the C module spells by hand in pam/*.c is held against
/// `CanEvaluateResult`, `CanEvaluateRefusal`, `BiometryType` and `ErrorCode`, so renaming a
/// member on one side breaks the build's tests, not sudo.
@Suite struct PAMAnswerDriftTests {
  static func source(_ name: String) throws -> String {
    try String(contentsOfFile: DocumentationDriftTests.root + "/pam/" + name, encoding: .utf8)
  }

  /// The function `name`'s body in a C source (from its opening line to the next line that is
  /// only "}").
  static func function(_ name: String, in text: String) -> String? {
    guard let start = text.range(of: " \(name)(") else { return nil }
    guard let end = text.range(of: "\n}\n", range: start.upperBound..<text.endIndex) else {
      return nil
    }
    return String(text[start.lowerBound..<end.upperBound])
  }

  /// The member names read from `variable` with `json_member(doc, variable, "…")`.
  static func members(readFrom variable: String, in text: String) -> Set<String> {
    let pattern = try! NSRegularExpression(
      pattern: #"json_member\(doc, \#(variable), "([A-Za-z]+)"\)"#)
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      pattern.matches(in: text, range: range).map {
        String(text[Range($0.range(at: 1), in: text)!])
      })
  }

  /// The string literals compared with `variable` by `strcmp(variable, "…")`.
  static func compared(_ variable: String, in text: String) -> Set<String> {
    let pattern = try! NSRegularExpression(pattern: #"strcmp\(\#(variable), "([A-Za-z]+)"\)"#)
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      pattern.matches(in: text, range: range).map {
        String(text[Range($0.range(at: 1), in: text)!])
      })
  }

  @Test func theCanEvaluateAnswerIsReadByItsTypesNames() throws {
    let body = try #require(
      Self.function("handle_can_evaluate", in: try Self.source("evaluation.c")))
    let read = Self.members(readFrom: "answer", in: body)
    #expect(read == ["biometryType", "canEvaluate", "error"])
    #expect(read.isSubset(of: CanEvaluateResult.memberNames))
  }

  @Test func anErrorIsReadByTheRefusalsNames() throws {
    let body = try #require(Self.function("answer_error", in: try Self.source("requests.c")))
    let read = Self.members(readFrom: "object", in: body).subtracting(["requestID"])
    #expect(read == ["name", "reason"])
    #expect(read.isSubset(of: CanEvaluateRefusal.memberNames))
  }

  @Test func theValuesComparedAreTheProtocols() throws {
    let prompt = try Self.source("prompt.c")
    let types = Self.compared("biometry", in: prompt)
    #expect(types.count == 3)
    #expect(types.isSubset(of: BiometryType.allCases.map(\.rawValue)))
    let names = Self.compared("name", in: try Self.source("requests.c"))
    #expect(names.count >= 4)
    #expect(names.isSubset(of: ErrorCode.allNamed.map(\.name)))
  }

  @Test func feedbackIsReadByItsTypesNames() throws {
    let read = Self.members(readFrom: "params", in: try Self.source("prompt.c"))
    #expect(read.isSuperset(of: ["feedback", "lockout", "attemptsExhausted"]))
    #expect(read.isSubset(of: FeedbackEvent.memberNames))
  }

  /// The reading finds what the module reads (a renamed member would be seen).
  @Test func theScanSeesARenamedMember() {
    let planted = #"json_is_true(doc, json_member(doc, answer, "canEvaluat"))"#
    #expect(
      !Self.members(readFrom: "answer", in: planted).isSubset(of: CanEvaluateResult.memberNames))
  }
}
