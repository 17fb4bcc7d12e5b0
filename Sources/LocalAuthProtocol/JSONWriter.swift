/// Writes JSON values as compact UTF-8 bytes, hand-written for the hot path (no Foundation).
/// Value type; use one per thread.
public struct JSONWriter {
  /// The bytes written so far.
  public var bytes: [UInt8]

  /// A writer with an empty buffer reserving `capacity` bytes.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// A writer that appends to existing bytes (a connection's output buffer, moved in and out).
  public init(appendingTo bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The compact encoding of one value.
  public static func encode(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  /// The compact encoding of one value as a String.
  public static func string(_ value: JSONValue) -> String {
    String(decoding: encode(value), as: UTF8.self)
  }

  /// Appends one value.
  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let b): raw(b ? "true" : "false")
    case .number(let n): write(number: n)
    case .string(let s): write(string: s)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      if let encoded = object.encoded {
        bytes.append(contentsOf: encoded)
        return
      }
      bytes.append(UInt8(ascii: "{"))
      for (i, member) in object.members.enumerated() {
        if i > 0 { bytes.append(UInt8(ascii: ",")) }
        write(string: member.key)
        bytes.append(UInt8(ascii: ":"))
        write(member.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Appends a request id as JSON, without making a `JSONValue` of it.
  public mutating func write(id: RequestID) {
    switch id {
    case .number(let n): write(number: n)
    case .string(let s): write(string: s)
    case .null: raw("null")
    }
  }

  /// Appends a number's literal (one copy of its UTF-8 bytes).
  private mutating func write(number: JSONNumber) {
    var literal = number.literal
    literal.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// How every response object begins, up to its id.
  static let responseHead: StaticString = "{\"jsonrpc\":\"2.0\",\"id\":"

  /// Appends `{"jsonrpc":"2.0","id":ID,"result":RESULT}` for a number id and a result whose
  /// encoding is kept (`JSONObject.kept`), and a newline when `asLine`: the pieces are put together
  /// on the stack and appended at once (each append to an array costs ~100 instructions; the
  /// request path's budget is docs/performance.md's).
  public mutating func appendResponse(id: JSONNumber, keptResult: [UInt8], asLine: Bool = false) {
    let head = Self.responseHead
    let middle: StaticString = ",\"result\":"
    var literal = id.literal
    literal.withUTF8 { idBytes in
      keptResult.withUnsafeBufferPointer { result in
        let total =
          head.utf8CodeUnitCount + idBytes.count + middle.utf8CodeUnitCount + result.count
          + (asLine ? 2 : 1)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { line in
          var at = line.baseAddress!
          func put(_ source: UnsafePointer<UInt8>?, _ count: Int) {
            guard count > 0, let source else { return }
            at.initialize(from: source, count: count)
            at += count
          }
          put(head.utf8Start, head.utf8CodeUnitCount)
          put(idBytes.baseAddress, idBytes.count)
          put(middle.utf8Start, middle.utf8CodeUnitCount)
          put(result.baseAddress, result.count)
          at.initialize(to: UInt8(ascii: "}"))
          if asLine { (at + 1).initialize(to: 0x0A) }
          bytes.append(contentsOf: UnsafeBufferPointer(line))
        }
      }
    }
  }

  /// Appends raw ASCII text that is already valid JSON.
  public mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends a quoted, escaped string.
  public mutating func write(string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      // Most strings (member names, identifiers, ASCII text) need no escape: one copy.
      if Self.needsNoEscape(utf8) {
        bytes.append(contentsOf: utf8)
        return
      }
      var runStart = 0
      for i in 0..<utf8.count {
        let byte = utf8[i]
        if byte >= 0x20 && byte != 0x22 && byte != 0x5C { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
        runStart = i + 1
        switch byte {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          raw("\\u00")
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0xF)])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Whether `utf8` holds no quote, backslash or control character: eight bytes at a time, as the
  /// parser scans strings (`Scanner.mayEndPlainRun`), the rest byte by byte.
  private static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    if let base = utf8.baseAddress {
      while index + 8 <= utf8.count {
        if Scanner.mayEndPlainRun(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
          break
        }
        index += 8
      }
    }
    while index < utf8.count {
      let byte = utf8[index]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      index += 1
    }
    return true
  }
}
