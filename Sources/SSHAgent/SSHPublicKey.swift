import LocalAuthCrypto
import LocalAuthProtocol

/// An ecdsa-sha2-nistp256 public key in OpenSSH's encodings: the wire blob, the
/// authorized_keys line and the SHA256 fingerprint.
public struct SSHPublicKey: Sendable, Equatable {
  /// The key type name.
  public static let algorithm = "ecdsa-sha2-nistp256"
  /// The curve name inside the blob.
  static let curve = "nistp256"

  /// The 65-byte X9.63 point.
  public let x963: [UInt8]

  /// The key with this X9.63 point (not validated here: the daemon made it).
  public init(x963: [UInt8]) { self.x963 = x963 }

  /// Parses a wire blob; nil for anything but a well-formed ecdsa-sha2-nistp256 key.
  public init?(blob: [UInt8]) {
    var reader = SSHWireReader(blob)
    guard (try? reader.text(maxBytes: 64)) == Self.algorithm,
      (try? reader.text(maxBytes: 64)) == Self.curve,
      let point = try? reader.string(maxBytes: 65), point.count == 65, point[0] == 4,
      reader.isAtEnd
    else { return nil }
    x963 = point
  }

  /// The wire blob: string algorithm, string curve, string point.
  public var blob: [UInt8] {
    var writer = SSHWireWriter()
    writer.string(Self.algorithm)
    writer.string(Self.curve)
    writer.string(x963)
    return writer.bytes
  }

  /// The authorized_keys line, `ecdsa-sha2-nistp256 AAAA… COMMENT`.
  public func line(comment: String) -> String {
    "\(Self.algorithm) \(Base64.encode(blob))" + (comment.isEmpty ? "" : " \(comment)")
  }

  /// `SHA256:` and the unpadded base64 of the blob's digest, as `ssh-keygen -l` prints it.
  public var fingerprint: String { Self.fingerprint(ofBlob: blob) }

  /// The SHA256 fingerprint of any key blob (host keys of every type).
  public static func fingerprint(ofBlob blob: [UInt8]) -> String {
    var encoded = Base64.encode(SHA256.hash(blob))
    while encoded.hasSuffix("=") { encoded.removeLast() }
    return "SHA256:" + encoded
  }

  /// The SSH signature blob for a DER (X9.62) ECDSA signature: string algorithm, string (mpint r,
  /// mpint s). Nil when `der` is not a DER ECDSA-Sig-Value.
  public static func signatureBlob(fromDER der: [UInt8]) -> [UInt8]? {
    guard let (r, s) = DERSignature.integers(der) else { return nil }
    var inner = SSHWireWriter()
    inner.mpint(r)
    inner.mpint(s)
    var writer = SSHWireWriter()
    writer.string(algorithm)
    writer.string(inner.bytes)
    return writer.bytes
  }
}

/// The two INTEGERs of a DER ECDSA-Sig-Value (SEQUENCE { r INTEGER, s INTEGER }).
enum DERSignature {
  /// r and s as big-endian magnitudes, or nil for anything else.
  static func integers(_ der: [UInt8]) -> ([UInt8], [UInt8])? {
    var index = 0
    func length() -> Int? {
      guard index < der.count else { return nil }
      let first = der[index]
      index += 1
      if first < 0x80 { return Int(first) }
      guard first == 0x81, index < der.count else { return nil }
      defer { index += 1 }
      return Int(der[index])
    }
    func integer() -> [UInt8]? {
      guard index < der.count, der[index] == 0x02 else { return nil }
      index += 1
      guard let count = length(), count > 0, count <= 33, index + count <= der.count else {
        return nil
      }
      defer { index += count }
      return Array(der[index..<index + count])
    }
    guard der.first == 0x30 else { return nil }
    index = 1
    guard let total = length(), index + total == der.count, let r = integer(), let s = integer(),
      index == der.count
    else { return nil }
    return (r, s)
  }
}
