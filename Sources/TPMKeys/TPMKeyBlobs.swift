/// A TPM object as the TPM gave it out: its marshaled `TPM2B_PUBLIC` and `TPM2B_PRIVATE`. The
/// private part is encrypted under the storage key of the TPM that made it and loads only there.
public struct TPMKeyBlobs: Sendable, Equatable {
  /// The marshaled TPM2B_PUBLIC.
  public var publicArea: [UInt8]
  /// The marshaled TPM2B_PRIVATE (wrapped by the parent: no use without that TPM).
  public var privateArea: [UInt8]

  /// The two blobs.
  public init(publicArea: [UInt8], privateArea: [UInt8]) {
    self.publicArea = publicArea
    self.privateArea = privateArea
  }

  /// One byte string for a file or a column: u16 length (big-endian) and bytes, for each part.
  public var encoded: [UInt8] {
    Self.lengthPrefixed(publicArea) + Self.lengthPrefixed(privateArea)
  }

  /// Reads `encoded`; nil when the bytes are not two length-prefixed parts and nothing else.
  public init?(encoded bytes: [UInt8]) {
    var rest = bytes[...]
    guard let publicArea = Self.part(&rest), let privateArea = Self.part(&rest), rest.isEmpty
    else { return nil }
    self.init(publicArea: publicArea, privateArea: privateArea)
  }

  private static func lengthPrefixed(_ part: [UInt8]) -> [UInt8] {
    [UInt8(part.count >> 8), UInt8(part.count & 0xff)] + part
  }

  private static func part(_ rest: inout ArraySlice<UInt8>) -> [UInt8]? {
    guard rest.count >= 2 else { return nil }
    let count = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
    rest = rest.dropFirst(2)
    guard count > 0, rest.count >= count else { return nil }
    defer { rest = rest.dropFirst(count) }
    return Array(rest.prefix(count))
  }
}
