import LocalAuthProtocol
import Testing

/// `Policy` by name and by raw value (docs/protocol.md, "Session").
@Suite("Policy")
struct PolicyTests {
  static let policies: [(String, Int, Policy)] = [
    ("deviceOwnerAuthenticationWithBiometrics", 1, .deviceOwnerAuthenticationWithBiometrics),
    ("deviceOwnerAuthentication", 2, .deviceOwnerAuthentication),
    ("deviceOwnerAuthenticationWithCompanion", 3, .deviceOwnerAuthenticationWithCompanion),
    (
      "deviceOwnerAuthenticationWithBiometricsOrCompanion", 4,
      .deviceOwnerAuthenticationWithBiometricsOrCompanion
    ),
    (
      "deviceOwnerAuthenticationWithWristDetection", 5, .deviceOwnerAuthenticationWithWristDetection
    ),
  ]

  @Test("each policy by name, raw value, raw value as text, and JSON", arguments: policies)
  func byNameAndValue(_ name: String, _ raw: Int, _ policy: Policy) {
    #expect(policy.rawValue == raw)
    #expect(policy.name == name && policy.description == name)
    #expect(Policy(name: name) == policy)
    #expect(Policy(name: String(raw)) == policy)
    #expect(Policy(json: .string(name)) == policy)
    #expect(Policy(json: .int(raw)) == policy)
    #expect(Policy(json: .string(String(raw))) == policy)
    #expect(Policy(json: policy.json) == policy)
    #expect(policy.json == .string(name))
  }

  @Test("there are exactly five policies")
  func allCases() {
    #expect(Policy.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
  }

  @Test(
    "invalid names are rejected",
    arguments: [
      "", "0", "6", "-1", "biometrics", "DeviceOwnerAuthentication", "deviceownerauthentication",
      " deviceOwnerAuthentication", "deviceOwnerAuthentication ", "2.0", "1e0", "two",
    ])
  func invalidNames(_ name: String) {
    #expect(Policy(name: name) == nil)
  }

  @Test("invalid JSON values are rejected", arguments: [0, -1, 6, 1000] as [Int])
  func invalidNumbers(_ raw: Int) {
    #expect(Policy(json: .int(raw)) == nil)
  }

  @Test("non-integer numbers and other JSON types are rejected")
  func invalidJSON() {
    #expect(Policy(json: number("1.5")) == nil)
    #expect(Policy(json: number("1e400")) == nil)
    #expect(Policy(json: nil) == nil)
    #expect(Policy(json: true) == nil)
    #expect(Policy(json: [1]) == nil)
    #expect(Policy(json: ["policy": 1]) == nil)
  }

  @Test(
    "an integral number in another spelling is its raw value", arguments: ["2.0", "2e0", "0.2e1"])
  func integralSpellings(_ literal: String) {
    #expect(Policy(json: number(literal)) == .deviceOwnerAuthentication)
  }

  @Test("BiometryType raw values are the wire strings")
  func biometryType() {
    #expect(BiometryType.allCases.map(\.rawValue) == ["none", "touchID", "faceID", "opticID"])
  }
}

/// `EvaluationSuccess`, the result object of `context.evaluatePolicy`.
@Suite("EvaluationSuccess")
struct EvaluationSuccessTests {
  @Test("round-trips through its JSON, with and without a sensor")
  func roundTrip() throws {
    for success in [
      EvaluationSuccess(
        requestID: "r-1", policy: .deviceOwnerAuthentication, sensor: "face", reused: false),
      EvaluationSuccess(
        requestID: "r-2", policy: .deviceOwnerAuthenticationWithBiometrics, sensor: nil,
        reused: true),
    ] {
      #expect(EvaluationSuccess(json: success.json) == success)
      #expect(
        EvaluationSuccess(json: try JSONParser.parse(JSONWriter.encode(success.json))) == success)
    }
  }

  @Test("the result object has the protocol's members")
  func shape() {
    let success = EvaluationSuccess(
      requestID: "r", policy: .deviceOwnerAuthentication, sensor: nil, reused: true)
    #expect(
      JSONWriter.string(success.json)
        == #"{"requestID":"r","policy":"deviceOwnerAuthentication","sensor":null,"reused":true}"#)
  }

  @Test("a policy given as raw value reads back; missing members are rejected")
  func reading() {
    #expect(
      EvaluationSuccess(json: ["requestID": "r", "policy": 1])?.policy
        == .deviceOwnerAuthenticationWithBiometrics
    )
    #expect(EvaluationSuccess(json: ["requestID": "r", "policy": 1])?.reused == false)
    #expect(EvaluationSuccess(json: ["policy": 1]) == nil)
    #expect(EvaluationSuccess(json: ["requestID": "r"]) == nil)
    #expect(EvaluationSuccess(json: ["requestID": "r", "policy": 9]) == nil)
    #expect(EvaluationSuccess(json: "r") == nil)
  }
}
