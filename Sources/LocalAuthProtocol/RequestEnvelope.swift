import Glibc

/// The request path's shortcut for the common frame: one request object whose envelope members
/// (`jsonrpc`, `id`, `method`, `params`) are spelled plainly and appear once. It reads them as it
/// parses, without building the object around them, its member names or the lookups of
/// `IncomingFrame.decodeRequest` (make bench-profile: ~1,000 instructions a request; see
/// docs/performance.md). Anything else — a batch, an error of any kind, a member spelled with
/// escapes or given twice, an envelope `decodeRequest` would refuse — gives nil, and the frame goes
/// the general way, which decides it exactly as before.
extension JSONParser {
  /// The request a frame holds when it is one plain, valid request; nil otherwise (then
  /// `IncomingFrame.decodeInGeneral` decides the frame).
  static func plainRequest(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> RPCRequest? {
    var none: [JSONMember] = []
    return plainRequest(buffer: buffer, maxDepth: maxDepth, reusing: &none)
  }

  /// `plainRequest(buffer:maxDepth:)`, whose first object (the params, as requests are sent) takes
  /// the storage of `spare`, an empty array, instead of allocating its own: the request path
  /// hands back each answered request's params storage (an allocation and a free a request less).
  /// `spare` is left as it was when no object took it.
  public static func plainRequest(
    buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, reusing spare: inout [JSONMember]
  ) -> RPCRequest? {
    if !spare.isEmpty { spare.removeAll(keepingCapacity: true) }
    var scanner = Scanner(bytes: buffer, maxDepth: maxDepth)
    swap(&scanner.spareMembers, &spare)
    defer { swap(&scanner.spareMembers, &spare) }
    do throws(JSONParseError) {
      return try scanner.plainRequest()
    } catch {
      return nil
    }
  }
}

extension Scanner {
  /// One of the envelope's members, by name.
  private enum EnvelopeMember {
    case jsonrpc, id, method, params, other
  }

  /// See `JSONParser.plainRequest`. Values are parsed as the general parser parses an object's
  /// members (same depth), so whatever this accepts, the general path accepts the same way.
  mutating func plainRequest() throws(JSONParseError) -> RPCRequest? {
    skipWhitespace()
    guard maxDepth >= 1, index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    var version: JSONValue?
    var id: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
        let member = try envelopeMember()
      else { return nil }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      skipWhitespace()
      let value =
        switch member {
        case .method: try methodName()
        // The version every request carries, read without making a string of it.
        case .jsonrpc where atPlainVersion: Self.skipping(5, &index, .string("2.0"))
        default: try value(depth: 1)
        }
      let firstTime =
        switch member {
        case .jsonrpc: Self.take(value, into: &version)
        case .id: Self.take(value, into: &id)
        case .method: Self.take(value, into: &method)
        case .params: Self.take(value, into: &params)
        case .other: true
        }
      guard firstTime else { return nil }
      skipWhitespace()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        break
      }
      guard bytes[index] == UInt8(ascii: ",") else { return nil }
      index += 1
    }
    skipWhitespace()
    guard index == bytes.count, version == .string("2.0"), case .string(let name)? = method else {
      return nil
    }
    var requestID: RequestID?
    if let id {
      guard let parsed = RequestID(json: id) else { return nil }
      requestID = parsed
    }
    switch params {
    case nil: return RPCRequest(method: name, params: JSONObject(), id: requestID)
    case .object(let object)?: return RPCRequest(method: name, params: object, id: requestID)
    case .array(let elements)? where elements.isEmpty:
      return RPCRequest(method: name, params: JSONObject(), id: requestID)
    default: return nil
    }
  }

  /// The `method` member's value: one of the protocol's method names is the registry's own string
  /// (a literal: nothing allocated, copied or freed, and the route lookup compares equal storage);
  /// anything else is parsed as any value is.
  private mutating func methodName() throws(JSONParseError) -> JSONValue {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      return try value(depth: 1)
    }
    return .string(try knownString(.methods))
  }

  /// Whether the value at `index` is the string `"2.0"`, spelled plainly.
  private var atPlainVersion: Bool {
    index < bytes.count && bytes[index] == UInt8(ascii: "\"") && matches("2.0")
  }

  /// `value`, after moving `index` past `count` bytes.
  private static func skipping(_ count: Int, _ index: inout Int, _ value: JSONValue) -> JSONValue {
    index += count
    return value
  }

  /// Keeps an envelope member's value; false when the member was given before.
  private static func take(_ value: JSONValue, into slot: inout JSONValue?) -> Bool {
    guard slot == nil else { return false }
    slot = value
    return true
  }

  /// Reads a member name at a quote: an envelope member spelled plainly, any other name, or nil
  /// for an envelope member spelled with escapes (left to the general path).
  private mutating func envelopeMember() throws(JSONParseError) -> EnvelopeMember? {
    if index + 1 < bytes.count {
      let plain: (name: StaticString, member: EnvelopeMember)? =
        switch bytes[index + 1] {
        case UInt8(ascii: "j"): ("jsonrpc", .jsonrpc)
        case UInt8(ascii: "i"): ("id", .id)
        case UInt8(ascii: "m"): ("method", .method)
        case UInt8(ascii: "p"): ("params", .params)
        default: nil
        }
      if let plain, matches(plain.name) {
        index += plain.name.utf8CodeUnitCount + 2
        return plain.member
      }
    }
    switch try string() {
    case "jsonrpc", "id", "method", "params": return nil
    default: return .other
    }
  }

  /// Whether the bytes after the quote at `index` are `name` and a closing quote.
  private func matches(_ name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    let start = index + 1
    guard start + count < bytes.count, bytes[start + count] == UInt8(ascii: "\"") else {
      return false
    }
    return memcmp(bytes.baseAddress! + start, name.utf8Start, count) == 0
  }
}

/// Strings the request path reads again and again (the protocol's method names, the context
/// methods' member names): bytes equal to one of them are read as that string, a literal, so
/// nothing is allocated, copied or validated (`Scanner.methodName`, `Scanner.knownString`). A name
/// holds no quote, backslash or control character, so bytes equal to one up to the next quote are
/// that string exactly as the general parser would read it.
///
/// Its tables are plain memory, made once and kept for the life of the process (the two tables are
/// `static let`s): a lookup reads them without retaining anything (~70 instructions, against ~180
/// for arrays of strings). `@unchecked Sendable`: the buffers are written only in `init` and
/// never changed or freed after, so any thread may read them.
final class KnownNames: @unchecked Sendable {
  /// Every name's UTF-8 bytes, back to back, shortest names first.
  private let utf8: UnsafeMutableBufferPointer<UInt8>
  /// Where each name's bytes start in `utf8`, in the same order.
  private let starts: UnsafeMutableBufferPointer<Int>
  /// `firstOfLength[n]..<firstOfLength[n + 1]`: the names of n bytes.
  private let firstOfLength: UnsafeMutableBufferPointer<Int>
  /// The names, in the same order.
  private let names: [String]

  /// A table of these names.
  init(_ names: [String]) {
    let sorted = names.sorted { $0.utf8.count < $1.utf8.count }
    let longest = sorted.last?.utf8.count ?? 0
    utf8 = .allocate(capacity: max(1, sorted.reduce(0) { $0 + $1.utf8.count }))
    starts = .allocate(capacity: max(1, sorted.count))
    firstOfLength = .allocate(capacity: longest + 2)
    var at = 0
    var next = 0
    for length in 0...(longest + 1) {
      firstOfLength[length] = next
      while next < sorted.count, sorted[next].utf8.count == length {
        starts[next] = at
        for byte in sorted[next].utf8 {
          utf8[at] = byte
          at += 1
        }
        next += 1
      }
    }
    self.names = sorted
  }

  /// The protocol's method names (`MethodRegistry`).
  static let methods = KnownNames(MethodRegistry.methodNames)

  /// The member names of the context methods' params (ContextRequests.swift: the requests sent
  /// most); any other name is read as any string is.
  static let members = KnownNames([
    "policy", "context", "user", "requester", "localizedReason", "requestID",
  ])

  /// The length of the longest name.
  var longest: Int { firstOfLength.count - 2 }

  /// The known string equal to `bytes`, or nil.
  func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let count = bytes.count
    guard count <= longest, let base = bytes.baseAddress, let table = utf8.baseAddress else {
      return nil
    }
    for index in firstOfLength[count]..<firstOfLength[count + 1]
    where memcmp(table + starts[index], base, count) == 0 {
      return names[index]
    }
    return nil
  }
}

extension Scanner {
  /// The string at the quote at `index`, read as a known name when it is one (`KnownNames`) and
  /// as any string otherwise. The closing quote is looked for only as far as the longest name
  /// reaches (a long string is scanned once, by `string`).
  mutating func knownString(_ names: KnownNames) throws(JSONParseError) -> String {
    let start = index + 1
    let reach = min(bytes.count, start + names.longest + 1)
    if start <= reach, let end = bytes[start..<reach].firstIndex(of: UInt8(ascii: "\"")),
      let name = names.name(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    {
      index = end + 1
      return name
    }
    return try string()
  }
}
