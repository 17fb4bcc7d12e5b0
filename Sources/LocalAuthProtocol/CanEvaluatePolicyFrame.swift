import Glibc

/// A `context.canEvaluatePolicy` frame in the one spelling clients send, read straight into its
/// typed fields: no JSON value, params object, member lookup or route. The request path's hottest
/// method takes this way (docs/performance.md, "The fifth round"); every other frame, and any
/// variation of this one (other members, another order, whitespace, escapes, a string or negative
/// id, a policy that is not plainly one of the five), is left to `JSONParser.plainRequest` and the
/// general decoder, which decide it as before. Value type; any thread.
///
/// The spelling, byte for byte (`ID`: `0` or digits not starting with 0, at most 18; `POLICY`: a
/// raw value 1…5 or a policy's name in quotes; `CONTEXT`: printable ASCII without `"` or `\`):
/// `{"jsonrpc":"2.0","id":ID,"method":"context.canEvaluatePolicy","params":{"policy":POLICY}}`,
/// or the same with `,"context":"CONTEXT"` after the policy. What it reads equals what the general
/// decoder makes of the same bytes (`request`; a test and `make fuzz` hold the two together).
public struct CanEvaluatePolicyFrame: Sendable, Equatable {
  /// The request's id, a number echoed as received.
  public var id: JSONNumber
  /// `policy`.
  public var policy: Policy
  /// `context`, when given.
  public var context: String?
  /// Whether `policy` was given by its name (else by its raw value).
  var policyByName: Bool

  /// The frame's fields; nil when `bytes` is not one such frame.
  public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard var reader = FrameReader(bytes), reader.skip(Self.head),
      let id = reader.idDigits(), reader.skip(Self.method),
      let (policy, byName) = reader.policy()
    else { return nil }
    var context: String?
    if reader.skip(Self.contextMember) {
      guard let text = reader.plainString() else { return nil }
      context = text
    }
    guard reader.skip(Self.tail), reader.atEnd else { return nil }
    self.id = id
    self.policy = policy
    self.context = context
    policyByName = byName
  }

  /// The request the general decoder makes of the same frame.
  public var request: RPCRequest {
    var params: JSONObject = ["policy": policyByName ? policy.json : .int(policy.rawValue)]
    if let context { params["context"] = .string(context) }
    return RPCRequest(method: CanEvaluatePolicyRequest.method, params: params, id: .number(id))
  }

  private static let head: StaticString = #"{"jsonrpc":"2.0","id":"#
  private static let method: StaticString =
    #","method":"context.canEvaluatePolicy","params":{"policy":"#
  private static let contextMember: StaticString = #","context":""#
  private static let tail: StaticString = "}}"
}

/// Reads the fixed spelling of `CanEvaluatePolicyFrame` from the front.
private struct FrameReader {
  let bytes: UnsafePointer<UInt8>
  let count: Int
  var index = 0

  init?(_ buffer: UnsafeBufferPointer<UInt8>) {
    guard let base = buffer.baseAddress else { return nil }
    bytes = base
    count = buffer.count
  }

  var atEnd: Bool { index == count }

  /// Moves past `text` when the bytes at `index` are exactly it.
  mutating func skip(_ text: StaticString) -> Bool {
    let length = text.utf8CodeUnitCount
    guard count - index >= length, memcmp(bytes + index, text.utf8Start, length) == 0 else {
      return false
    }
    index += length
    return true
  }

  /// A non-negative integer's literal as JSON spells it (no leading zero), at most 18 digits,
  /// followed by anything but a fraction or an exponent.
  mutating func idDigits() -> JSONNumber? {
    let start = index
    while index < count, index - start <= 18, isDigit(bytes[index]) { index += 1 }
    let length = index - start
    guard length >= 1, length <= 18, !(length > 1 && bytes[start] == UInt8(ascii: "0")) else {
      return nil
    }
    if length == 1 { return JSONNumber.digit(Int(bytes[start] &- UInt8(ascii: "0"))) }
    let digits = UnsafeBufferPointer(start: bytes + start, count: length)
    return JSONNumber(validatedLiteral: String(decoding: digits, as: UTF8.self))
  }

  /// `policy`'s value: a raw value 1…5, or a name in quotes (`byName`).
  mutating func policy() -> (Policy, byName: Bool)? {
    guard index < count else { return nil }
    let first = bytes[index]
    if isDigit(first) {
      guard index + 1 < count, !isDigit(bytes[index + 1]),
        let policy = Policy(rawValue: Int(first &- UInt8(ascii: "0")))
      else { return nil }
      index += 1
      return (policy, false)
    }
    for policy in Policy.allCases where quoted(policy.name) { return (policy, true) }
    return nil
  }

  /// Moves past `"name"` when the bytes at `index` are exactly that.
  private mutating func quoted(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { utf8 in
      let length = utf8.count + 2
      guard count - index >= length, bytes[index] == UInt8(ascii: "\""),
        bytes[index + length - 1] == UInt8(ascii: "\""),
        memcmp(bytes + index + 1, utf8.baseAddress!, utf8.count) == 0
      else { return false }
      index += length
      return true
    }
  }

  /// A string's text up to its closing quote (the opening one was read), when every byte is
  /// printable ASCII other than `\`: nothing to unescape or validate.
  mutating func plainString() -> String? {
    let start = index
    while index < count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = UnsafeBufferPointer(start: bytes + start, count: index - start)
        index += 1
        return String(decoding: text, as: UTF8.self)
      }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
    return nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
