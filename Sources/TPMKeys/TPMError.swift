import CTSS2

/// A failed TPM or tss2 call: which call, its response code and tss2's words for it
/// (`Tss2_RC_Decode`), and what the code means for the caller.
public struct TPMError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What the daemon makes of a response code.
  public enum Kind: String, Sendable, Equatable {
    /// No TPM answers at the TCTI (it cannot be opened, or the connection broke).
    case unreachable
    /// The object was made by another TPM (or under another storage key): it does not load here.
    case otherTPM
    /// The auth value given is not the object's (TPM_RC_AUTH_FAIL, TPM_RC_BAD_AUTH).
    case authFailed
    /// The TPM is in dictionary-attack lockout (TPM_RC_LOCKOUT).
    case lockout
    /// The TPM has no room for another loaded object or session (TPM_RC_*_MEMORY).
    case full
    /// Anything else the TPM or tss2 refused.
    case failed
  }

  /// The tss2 call that failed (`Esys_Sign`, `Tss2_TctiLdr_Initialize`, …).
  public let operation: String
  /// Its response code, with tss2's layer in bits 16–23.
  public let code: UInt32
  /// What the code means for the caller.
  public let kind: Kind

  /// The error of `operation` answering `code`, or `kind` when the caller knows better.
  public init(_ operation: String, code: UInt32, kind: Kind? = nil) {
    self.operation = operation
    self.code = code
    self.kind = kind ?? Self.kind(of: code)
  }

  /// The call, the code in hex and tss2's text.
  public var description: String {
    let text = Tss2_RC_Decode(code).map { String(cString: $0) } ?? "unknown"
    return "\(operation) failed: 0x\(String(code, radix: 16)) (\(text))"
  }

  /// The meaning of a response code (TPM 2.0 Part 2, "Response Code Details"; tss2_common.h's layers).
  static func kind(of code: UInt32) -> Kind {
    let layer = code >> 16
    // The TPM's own codes (layer 0) and those a resource manager passes on (11: TSS2_RESMGR_TPM).
    guard layer == 0 || layer == 11 else {
      // Layer 10 is the TCTI; any layer's NO_CONNECTION (8), TRY_AGAIN (9) and IO_ERROR (10) say
      // the same: the TPM is not there to answer.
      let base = code & 0xffff
      return layer == 10 || (8...10).contains(base) ? .unreachable : .failed
    }
    let response = code & 0xffff
    if response & 0x80 != 0 {
      switch response & 0xbf {
      case 0x9f, 0xa5: return .otherTPM  // TPM_RC_INTEGRITY, TPM_RC_BINDING
      case 0x8e, 0xa2: return .authFailed  // TPM_RC_AUTH_FAIL, TPM_RC_BAD_AUTH
      default: return .failed
      }
    }
    switch response {
    case 0x921: return .lockout
    case 0x902, 0x903, 0x904: return .full  // TPM_RC_OBJECT_MEMORY, _SESSION_MEMORY, TPM_RC_MEMORY
    default: return .failed
    }
  }
}

/// Throws `TPMError` for a response code other than success.
func check(_ code: UInt32, _ operation: String) throws(TPMError) {
  guard code != 0 else { return }
  throw TPMError(operation, code: code)
}
