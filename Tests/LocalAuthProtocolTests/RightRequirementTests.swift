import LocalAuthProtocol
import Testing

/// `right.create`'s requirement: every accepted wire shape decodes to its typed value, the typed
/// value encodes to the shape the daemon reads back, and every other shape is invalidParams with
/// the field and the message clients have always seen.
@Suite("Right requirement")
struct RightRequirementTests {
  static let shapes: [(JSONObject, RightRequirement)] = [
    (["requirement": "default"], .default),
    (["requirement": "biometry"], .biometry(fallback: .none)),
    (["requirement": "biometry", "fallback": "none"], .biometry(fallback: .none)),
    (
      ["requirement": "biometry", "fallback": "devicePasscode"],
      .biometry(fallback: .devicePasscode)
    ),
    (
      ["requirement": ["biometry": ["fallback": "devicePasscode"]]],
      .biometry(fallback: .devicePasscode)
    ),
    (["requirement": ["biometry": [:]]], .biometry(fallback: .none)),
    (["requirement": ["biometry": .null]], .biometry(fallback: .none)),
    (["requirement": ["biometry": true]], .biometry(fallback: .none)),
    (
      ["requirement": ["name": "biometry", "fallback": "devicePasscode"]],
      .biometry(fallback: .devicePasscode)
    ),
    (["requirement": ["name": "default"]], .default),
    (["requirement": "biometryCurrentSet"], .biometryCurrentSet),
  ]

  @Test(arguments: shapes)
  func everyShapeDecodesToItsValue(object: JSONObject, requirement: RightRequirement) throws {
    #expect(try RightCreateRequest.Params(object: object).requirement() == requirement)
  }

  @Test(
    arguments: [
      RightRequirement.default, .biometry(fallback: .none), .biometry(fallback: .devicePasscode),
      .biometryCurrentSet,
    ])
  func theClientsEncodingReadsBack(requirement: RightRequirement) throws {
    let params = RightCreateRequest.Params(requirement: requirement)
    #expect(try RightCreateRequest.Params(object: params.object).requirement() == requirement)
    #expect(params.object["requirement"] == .string(requirement.name))
  }

  @Test func theWireFormIsUnchanged() {
    #expect(RightCreateRequest.Params(requirement: .default).object == ["requirement": "default"])
    #expect(
      RightCreateRequest.Params(requirement: .biometry(fallback: .devicePasscode)).object
        == ["requirement": "biometry", "fallback": "devicePasscode"])
    #expect(
      RightCreateRequest.Params(requirement: .biometryCurrentSet).object
        == ["requirement": "biometryCurrentSet"])
  }

  static let refusals: [(JSONObject, String, String)] = [
    ([:], "requirement", "Invalid params: 'requirement' is required."),
    (
      ["requirement": "bogus"], "requirement",
      "Invalid params: 'requirement' must be default, biometry (fallback devicePasscode optional) or biometryCurrentSet."
    ),
    (
      ["requirement": 3], "requirement",
      "Invalid params: 'requirement' must be a string or an object, not number."
    ),
    (
      ["requirement": "default", "fallback": "devicePasscode"], "fallback",
      "Invalid params: 'fallback' is allowed only with the biometry requirement."
    ),
    (
      ["requirement": "biometryCurrentSet", "fallback": "none"], "fallback",
      "Invalid params: 'fallback' is allowed only with the biometry requirement."
    ),
    (
      ["requirement": "biometry", "fallback": "watch"], "fallback",
      "Invalid params: 'fallback' must be \"devicePasscode\" or \"none\", not \"watch\"."
    ),
    (
      ["requirement": ["biometry": "x"]], "requirement",
      "Invalid params: 'requirement' options must be an object such as {fallback: \"devicePasscode\"}."
    ),
    (
      ["requirement": ["name": "", "fallback": "none"]], "name",
      "Invalid params: 'name' must not be empty."
    ),
  ]

  @Test(arguments: refusals)
  func otherShapesAreInvalidParams(object: JSONObject, field: String, message: String) {
    let error = ParamReaderTests.failure { () throws(RPCError) in
      try RightCreateRequest.Params(object: object).requirement()
    }
    #expect(error?.code == .invalidParams)
    #expect(error?.data["field"] == .string(field))
    #expect(error?.message == message)
  }
}
