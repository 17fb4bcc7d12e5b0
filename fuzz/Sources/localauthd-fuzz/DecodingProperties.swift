import LocalAuthProtocol

/// JSONParser, JSONWriter and IncomingFrame.decode: never crash, and what parses survives a
/// write-and-reparse round trip unchanged.
enum DecodingProperties {
  /// Checks every line of `bytes` (split on newlines, as the daemon's framer would with no limit).
  static func check(_ bytes: [UInt8]) {
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      checkValue(line)
      checkFrame(line)
    }
  }

  /// Parse → write → parse gives the same value; depth limits hold.
  static func checkValue(_ line: ArraySlice<UInt8>) {
    guard let value = try? JSONParser.parse(line) else { return }
    let written = JSONWriter.encode(value)
    precondition(!written.contains(0x0A), "writer emitted a raw newline")
    guard let again = try? JSONParser.parse(written) else {
      preconditionFailure(
        "writer output does not parse: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(again == value, "value changed in a write/parse round trip")
    if (try? JSONParser.parse(line, maxDepth: 2)) != nil {
      precondition(depth(of: value) <= 2, "parser accepted nesting over maxDepth")
    }
  }

  /// Decoding a frame is total and the same with or without the plain-request shortcut; a decoded
  /// request re-encodes to a line that decodes to the same request.
  static func checkFrame(_ line: ArraySlice<UInt8>) {
    let decoded = IncomingFrame.decode(line)
    let general = Array(line).withUnsafeBufferPointer {
      IncomingFrame.decodeInGeneral(buffer: $0, maxDepth: JSONParser.defaultMaxDepth)
    }
    precondition(decoded == general, "the plain-request shortcut decided a frame differently")
    let frame = Array(line).withUnsafeBufferPointer { CanEvaluatePolicyFrame($0) }
    if let frame {
      precondition(
        general == .single(.success(frame.request)),
        "the canEvaluatePolicy shortcut read a frame differently")
    }
    let requests: [Result<RPCRequest, RPCRejection>]
    switch decoded {
    case .single(let one): requests = [one]
    case .batch(let many):
      precondition(!many.isEmpty, "empty batch decoded")
      requests = many
    }
    for case .success(let request) in requests {
      let line = JSONWriter.encode(request.json)
      guard case .single(.success(let again)) = IncomingFrame.decode(line) else {
        preconditionFailure(
          "re-encoded request does not decode: \(String(decoding: line, as: UTF8.self))")
      }
      precondition(again == request, "request changed in an encode/decode round trip")
    }
    for case .failure(let rejection) in requests {
      var writer = JSONWriter()
      RPCEncoder.write(error: rejection.error, id: rejection.id, into: &writer)
      precondition((try? JSONParser.parse(writer.bytes)) != nil, "error response is not valid JSON")
    }
  }

  private static func depth(of value: JSONValue) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
    case .object(let object): 1 + (object.members.map { depth(of: $0.value) }.max() ?? 0)
    default: 0
    }
  }
}
