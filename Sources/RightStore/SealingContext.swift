import RightsStorage

/// The additional authenticated data that binds a sealed blob to its row, recomputed on every open, never stored:
/// `label 0x00 | version | uid (BE32) | u16 length + appID | u16 length + identifier`.
/// A blob moved to another row, owner or purpose no longer opens.
enum SealingContext {
  /// The AAD format version.
  static let version: UInt8 = 1

  /// What a sealed blob holds, which selects the AAD label.
  enum Purpose: String {
    case privateKey = "localauthd-seal"
    case secret = "localauthd-secret"
    case handoffPayload = "localauthd-handoff"
    case sshKey = "localauthd-ssh-key"
  }

  /// The AAD for `purpose` in the row of `owner` and `identifier` (a right identifier or a handoff id).
  static func aad(_ purpose: Purpose, owner: Owner, identifier: String) throws -> [UInt8] {
    var aad = Array(purpose.rawValue.utf8) + [0x00, version]
    withUnsafeBytes(of: owner.uid.bigEndian) { aad += $0 }
    try appendLengthPrefixed(owner.appID, to: &aad)
    try appendLengthPrefixed(identifier, to: &aad)
    return aad
  }

  /// Appends a u16 big-endian length and the UTF-8 bytes of `text`.
  private static func appendLengthPrefixed(_ text: String, to aad: inout [UInt8]) throws {
    let bytes = Array(text.utf8)
    guard let length = UInt16(exactly: bytes.count) else {
      throw RightStoreError.invalidArgument("\(bytes.count)-byte field is longer than 65535 bytes")
    }
    aad += [UInt8(length >> 8), UInt8(length & 0xff)] + bytes
  }
}
