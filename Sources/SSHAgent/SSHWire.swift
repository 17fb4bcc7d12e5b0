/// A malformed SSH wire message: truncated, oversized, or holding a value out of its range.
public struct SSHWireError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}

/// Reads the SSH wire types of RFC 4251 section 5 from a byte buffer, never past its end: every
/// length is checked against what is left before anything is read or allocated.
public struct SSHWireReader: Sendable {
  private let bytes: [UInt8]
  private var offset = 0

  /// A reader at the start of `bytes`.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The bytes not read yet.
  public var remaining: Int { bytes.count - offset }

  /// Whether everything was read.
  public var isAtEnd: Bool { offset == bytes.count }

  /// One byte.
  public mutating func byte() throws(SSHWireError) -> UInt8 {
    guard remaining >= 1 else { throw SSHWireError("truncated: a byte is missing") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A boolean: any non-zero byte is true.
  public mutating func bool() throws(SSHWireError) -> Bool { try byte() != 0 }

  /// A big-endian uint32.
  public mutating func uint32() throws(SSHWireError) -> UInt32 {
    guard remaining >= 4 else { throw SSHWireError("truncated: a uint32 is missing") }
    var value: UInt32 = 0
    for index in offset..<offset + 4 { value = value << 8 | UInt32(bytes[index]) }
    offset += 4
    return value
  }

  /// A length-prefixed string of at most `maxBytes` bytes.
  public mutating func string(maxBytes: Int = 64 * 1024) throws(SSHWireError) -> [UInt8] {
    let length = Int(try uint32())
    guard length <= maxBytes else {
      throw SSHWireError("a string of \(length) bytes is longer than \(maxBytes)")
    }
    guard length <= remaining else {
      throw SSHWireError("truncated: a string of \(length) bytes has \(remaining) left")
    }
    defer { offset += length }
    return Array(bytes[offset..<offset + length])
  }

  /// A length-prefixed string that must be valid UTF-8 without NUL bytes.
  public mutating func text(maxBytes: Int = 1024) throws(SSHWireError) -> String {
    let raw = try string(maxBytes: maxBytes)
    guard !raw.contains(0), let text = String(validating: raw, as: UTF8.self) else {
      throw SSHWireError("a name is not UTF-8 text")
    }
    return text
  }

  /// Every byte left.
  public mutating func rest() -> [UInt8] {
    defer { offset = bytes.count }
    return Array(bytes[offset...])
  }

  /// Throws unless everything was read.
  public func expectEnd() throws(SSHWireError) {
    guard isAtEnd else { throw SSHWireError("\(remaining) unexpected trailing bytes") }
  }
}

/// Writes the SSH wire types.
public struct SSHWireWriter: Sendable {
  /// What was written.
  public private(set) var bytes: [UInt8] = []

  /// An empty writer.
  public init() {}

  /// One byte.
  public mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// A big-endian uint32.
  public mutating func uint32(_ value: UInt32) {
    bytes += [
      UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff),
    ]
  }

  /// A length-prefixed string.
  public mutating func string(_ value: [UInt8]) {
    uint32(UInt32(value.count))
    bytes += value
  }

  /// A length-prefixed UTF-8 string.
  public mutating func string(_ value: String) { string(Array(value.utf8)) }

  /// An mpint (RFC 4251): a positive big-endian integer, minimal, with a zero byte before a set top bit.
  public mutating func mpint(_ magnitude: [UInt8]) {
    var trimmed = ArraySlice(magnitude)
    while let first = trimmed.first, first == 0 { trimmed = trimmed.dropFirst() }
    if let first = trimmed.first, first & 0x80 != 0 { trimmed.insert(0, at: trimmed.startIndex) }
    string(Array(trimmed))
  }
}
