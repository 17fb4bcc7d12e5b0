import Testing

@testable import LocalAuthProtocol

/// `CanEvaluatePolicyFrame`, the request path's reading of a plain canEvaluatePolicy frame: it
/// takes the one spelling clients send and reads what the general decoder reads; every variation
/// is left to the general path.
@Suite("CanEvaluatePolicyFrame")
struct CanEvaluatePolicyFrameTests {
  static let head = #"{"jsonrpc":"2.0","id":"#
  static let method = #","method":"context.canEvaluatePolicy","params":{"policy":"#

  @Test(
    "the plain spelling is read as the general decoder reads it",
    arguments: [
      head + "1" + method + "1}}",
      head + "0" + method + "5}}",
      head + "123456789012345678" + method + "2}}",
      head + "42" + method + #""deviceOwnerAuthentication"}}"#,
      head + "42" + method + #""deviceOwnerAuthenticationWithBiometricsOrCompanion"}}"#,
      head + "9" + method + #"1,"context":"ctx-0A1b"}}"#,
      head + "9" + method + #"3,"context":""}}"#,
      head + "9" + method + #""deviceOwnerAuthenticationWithWristDetection","context":"a b/~"}}"#,
    ])
  func plainFramesAreRead(_ line: String) throws {
    let frame = try #require(read(line), "not read: \(line)")
    let general = Array(line.utf8).withUnsafeBufferPointer {
      IncomingFrame.decodeInGeneral(buffer: $0, maxDepth: JSONParser.defaultMaxDepth)
    }
    #expect(general == .single(.success(frame.request)))
  }

  @Test(
    "every variation is left to the general path",
    arguments: [
      head + "1" + method + "6}}",
      head + "1" + method + "0}}",
      head + "1" + method + "12}}",
      head + "1" + method + "1.0}}",
      head + "1" + method + "1e0}}",
      head + "1" + method + #""2"}}"#,
      head + "1" + method + #""deviceOwnerAuthenticationX"}}"#,
      head + "1" + method + #""deviceOwnerAuthenticatio"}}"#,
      head + "1" + method + #"1,"context":"a\"b"}}"#,
      head + "1" + method + #"1,"context":"a\u0062"}}"#,
      head + "1" + method + "1,\"context\":\"é\"}}",
      head + "1" + method + "1,\"context\":\"\t\"}}",
      head + "1" + method + #"1,"context":null}}"#,
      head + "1" + method + #"1,"context":"x"#,
      head + "1" + method + #"1,"user":"alice"}}"#,
      head + "1" + method + #"1,"context":"x","user":0}}"#,
      head + "1" + method + "1}} ",
      head + "1" + method + "1} }",
      head + "1" + method + "1}",
      head + "1" + method + "1}}}",
      head + "01" + method + "1}}",
      head + "-1" + method + "1}}",
      head + "1.0" + method + "1}}",
      head + "1e2" + method + "1}}",
      head + "1234567890123456789" + method + "1}}",
      head + #""1""# + method + "1}}",
      head + "null" + method + "1}}",
      head + method + "1}}",
      #"{"jsonrpc":"2.0","method":"context.canEvaluatePolicy","params":{"policy":1}}"#,
      #"{"id":1,"jsonrpc":"2.0","method":"context.canEvaluatePolicy","params":{"policy":1}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicyX","params":{"policy":1}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.evaluatePolicy","params":{"policy":1}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy","params":{"context":"c","policy":1}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluatePolicy"}"#,
      #"{"jsonrpc":"2.0","id":1, "method":"context.canEvaluatePolicy","params":{"policy":1}}"#,
      "",
      "{",
    ])
  func variationsAreLeft(_ line: String) {
    #expect(read(line) == nil, "read: \(line)")
  }

  private func read(_ line: String) -> CanEvaluatePolicyFrame? {
    Array(line.utf8).withUnsafeBufferPointer { CanEvaluatePolicyFrame($0) }
  }
}

/// `CanEvaluateResult.keptEncoding`, what the request path writes for a plain frame's answer: the
/// bytes `json` encodes to, for every success and every refusal without a reason; none for a
/// refusal with a reason (its answer is encoded from `json`).
@Suite("CanEvaluateResult kept encodings")
struct CanEvaluateKeptEncodingTests {
  @Test("a kept encoding is the answer's encoding", arguments: BiometryType.allCases)
  func keptEncodingIsTheEncoding(_ type: BiometryType) throws {
    let refusals = (-22...0).map { CanEvaluateRefusal(ErrorCode(rawValue: $0)) }
    for refusal in [nil] + refusals {
      let answer = CanEvaluateResult(refusal: refusal, biometryType: type)
      let written = JSONWriter.encode(answer.json)
      if let kept = answer.keptEncoding {
        #expect(kept == written, "\(String(describing: refusal))")
        #expect(
          try JSONParser.parse(kept) == JSONParser.parse(Self.builtByHand(answer)),
          "\(String(describing: refusal))")
      } else {
        #expect(refusal != nil && !(-20 ... -1).contains(refusal!.code.rawValue))
      }
    }
    let reasoned = CanEvaluateResult(
      refusal: CanEvaluateRefusal(.biometryLockout, reason: "requesterLockedOut"),
      biometryType: type)
    #expect(reasoned.keptEncoding == nil)
  }

  /// The answer as docs/protocol.md spells it, written member by member.
  private static func builtByHand(_ answer: CanEvaluateResult) -> [UInt8] {
    var text = #"{"canEvaluate":\#(answer.refusal == nil)"#
    if let refusal = answer.refusal {
      text +=
        #","error":{"code":\#(refusal.code.rawValue),"name":"\#(refusal.code.name)","message":"\#(refusal.code.defaultMessage)"}"#
    }
    text += #","biometryType":"\#(answer.biometryType.rawValue)"}"#
    return Array(text.utf8)
  }
}
