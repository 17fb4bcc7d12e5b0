import Foundation
import LocalAuthProtocol
import Testing

/// The protocol module's base64 codec agrees with Foundation and refuses anything malformed.
@Suite struct RightsBase64Tests {
  @Test func roundTripsEveryLengthLikeFoundation() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = Base64.encode(bytes)
      #expect(encoded == Data(bytes).base64EncodedString())
      #expect(Base64.decode(encoded) == bytes)
      #expect(Base64.decode(encoded.replacingOccurrences(of: "=", with: "")) == bytes)
    }
  }

  @Test(arguments: [
    "A", "AB=", "A===", "AB==C", "AB$=", "AB\n==", "AB-_", "AB==AA==", "AF==", "=AAA",
  ])
  func rejectsMalformedText(_ text: String) {
    #expect(Base64.decode(text) == nil)
  }

  @Test func paramReaderNamesTheField() {
    let reader = ParamReader(["data": "AQID", "bad": "***", "big": "AAAA"])
    #expect((try? reader.base64("data")) == [1, 2, 3])
    #expect(throws: RPCError.invalidParams("bad", "must be standard base64")) {
      try reader.base64("bad")
    }
    #expect(throws: RPCError.invalidParams("missing", "is required")) {
      try reader.base64("missing")
    }
    #expect(throws: RPCError.invalidParams("big", "must be at most 2 bytes")) {
      try reader.base64("big", maxBytes: 2)
    }
    #expect((try? reader.optionalBase64("missing")) == .some(nil))
  }
}
