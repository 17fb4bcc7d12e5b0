/// The standard base64 alphabet of RFC 4648 section 4, used for every binary field on the wire
/// (keys, signatures, ciphertexts, secrets, handoff payloads). Stateless; usable from any thread.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  /// Encodes bytes as padded standard base64.
  public static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let chunk =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(alphabet[Int(chunk >> 6 & 0x3F)])
      output.append(alphabet[Int(chunk & 0x3F)])
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(rest == 2 ? alphabet[Int(chunk >> 6 & 0x3F)] : UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes standard base64; padding may be omitted, but nothing else is tolerated (no whitespace,
  /// no URL-safe alphabet, no bits set past the end). Returns nil for anything malformed.
  public static func decode(_ text: String) -> [UInt8]? {
    var input = Array(text.utf8)
    if input.count % 4 == 0, input.last == UInt8(ascii: "=") {
      input.removeLast()
      if input.last == UInt8(ascii: "=") { input.removeLast() }
    }
    if input.count % 4 == 1 { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for byte in input {
      let value = values[Int(byte)]
      guard value != 0xFF else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    guard accumulator == 0 else { return nil }
    return output
  }
}

extension ParamReader {
  /// A required base64 field, decoded; -32602 naming the field when absent or not base64.
  public func base64(_ key: String, maxBytes: Int = Int.max) throws(RPCError) -> [UInt8] {
    guard let bytes = try optionalBase64(key, maxBytes: maxBytes) else {
      throw .invalidParams(key, "is required")
    }
    return bytes
  }

  /// An optional base64 field (absent or null read as nil), decoded.
  public func optionalBase64(_ key: String, maxBytes: Int = Int.max) throws(RPCError) -> [UInt8]? {
    guard let text = try optionalString(key) else { return nil }
    guard let bytes = Base64.decode(text) else {
      throw .invalidParams(key, "must be standard base64")
    }
    guard bytes.count <= maxBytes else {
      throw .invalidParams(key, "must be at most \(maxBytes) bytes")
    }
    return bytes
  }
}
