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
