/// An ECDSA signature's two integers as DER (`SEQUENCE { INTEGER r, INTEGER s }`, X9.62), the form
/// `P256PublicKey.isValidSignature` and Apple's X962 algorithms take.
public enum ECDSASignature {
  /// The DER of `r` and `s`, unsigned big-endian integers of any length (a TPM gives 32 bytes each).
  public static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
    let body = integer(r) + integer(s)
    return [0x30] + length(body.count) + body
  }

  /// One DER INTEGER: leading zeros dropped, one zero put back when the top bit is set.
  private static func integer(_ bytes: [UInt8]) -> [UInt8] {
    var value = Array(bytes.drop { $0 == 0 })
    if value.isEmpty { value = [0] }
    if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
    return [0x02] + length(value.count) + value
  }

  /// A DER length (short form below 128, else one or two length bytes).
  private static func length(_ count: Int) -> [UInt8] {
    if count < 0x80 { return [UInt8(count)] }
    if count < 0x100 { return [0x81, UInt8(count)] }
    return [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
  }
}
