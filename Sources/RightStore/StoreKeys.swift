import LocalAuthCrypto
import RightsStorage
import TPMKeys

/// Where the store's keys come from: the file device key as before, or a TPM that seals the device
/// key and makes new keys inside itself (`[Keys] Store=` in localauthd.conf).
public enum KeyStoreChoice: Sendable {
  /// The device key in `device.key`, every key sealed under it.
  case file
  /// The TPM: the device key sealed by it (`device.key.tpm`), new SSH keys made in it.
  case tpm(TPM)
}

/// The keys a store works with, made once at open: the sealer and the keyed digests derived from
/// the device key, the TPM new keys are made in, and where each lives. When the device key cannot
/// be had (sealed to another TPM), every use of a key throws `.keyUnavailable` with the reason.
struct StoreKeys: Sendable {
  /// Seals and opens private keys, secrets and payloads; nil when the device key is unavailable.
  private let sealer: AESGCMSealer?
  /// The key TPM auth values are derived from (HMAC-SHA-256 of a label under the device key).
  private let authKey: [UInt8]
  /// The key of domainState digests (random for this run when the device key is unavailable).
  let digestKey: [UInt8]
  /// The TPM keys are made in and used by, nil with `Store=file`.
  let tpm: TPM?
  /// Where the keys live, for status.
  let status: KeyStoreStatus

  /// The keys of `deviceKey` (nil: unavailable for `status.unavailable`), with `tpm` if any.
  init(deviceKey: [UInt8]?, tpm: TPM?, status: KeyStoreStatus) throws {
    if let deviceKey {
      sealer = try mapCryptoError { try AESGCMSealer(key: deviceKey) }
      digestKey = HMACSHA256.authenticate(Array("localauthd digest key v1".utf8), key: deviceKey)
      authKey = HMACSHA256.authenticate(Array("localauthd tpm auth v1".utf8), key: deviceKey)
    } else {
      sealer = nil
      digestKey = SecureRandom.bytes(32)
      authKey = []
    }
    self.tpm = tpm
    self.status = status
  }

  /// The sealer, or `.keyUnavailable` saying why there is none.
  func sealing() throws -> AESGCMSealer {
    guard let sealer else { throw RightStoreError.keyUnavailable(unavailableReason) }
    return sealer
  }

  /// The auth value of the TPM key whose sealing context is `context` (its row's AAD): 32 bytes
  /// only a holder of the device key can compute, so the blobs in the store sign for nobody else.
  func authValue(for context: [UInt8]) throws -> [UInt8] {
    guard sealer != nil else { throw RightStoreError.keyUnavailable(unavailableReason) }
    return HMACSHA256.authenticate(context, key: authKey)
  }

  /// The TPM, or `.keyUnavailable` for a TPM key in a daemon running without one.
  func requireTPM(for what: String) throws -> TPM {
    if let reason = status.unavailable { throw RightStoreError.keyUnavailable(reason) }
    guard let tpm else {
      throw RightStoreError.keyUnavailable(
        "\(what) lives in the TPM, but the daemon runs without one ([Keys] Store=file, or no TPM answered at start)"
      )
    }
    return tpm
  }

  private var unavailableReason: String { status.unavailable ?? "the device key is unavailable" }

  /// A TPM failure of a key use as the store's error: the key is unavailable, and why.
  static func failure(_ error: TPMError, of what: String, tcti: String) -> RightStoreError {
    switch error.kind {
    case .otherTPM: return .keyUnavailable("\(what) is sealed to another TPM (\(error))")
    case .unreachable: return .keyUnavailable("the TPM at \(tcti) does not answer (\(error))")
    case .authFailed:
      return .keyUnavailable(
        "the TPM refuses the auth value of \(what): it was made under another device key (\(error))"
      )
    case .lockout:
      return .keyUnavailable("the TPM is in dictionary-attack lockout; try later (\(error))")
    case .full: return .keyUnavailable("the TPM has no room for another object (\(error))")
    case .failed: return .keyUnavailable("the TPM refused to use \(what) (\(error))")
    }
  }
}
