/// Where a private key lives: made inside the TPM (it never leaves it), or sealed under the device
/// key in the store (docs/rights-and-keys.md, "Keys in the TPM").
public enum KeyResidence: String, Sendable, Equatable {
  /// Made inside the TPM; the store holds only its TPM blobs, useless on another TPM.
  case tpm
  /// Sealed under the device key (AES-256-GCM) in the store; unsealed in the daemon to be used.
  case file
}

/// Where the store keeps its keys: where new keys are made, where the device key is kept, the TPM's
/// TCTI, and why keys cannot be used when they cannot. Shown by `localauthctl status`.
public struct KeyStoreStatus: Sendable, Equatable {
  /// Where new SSH keys are made.
  public var newKeys: KeyResidence
  /// Where the device key is kept: sealed in the TPM, or in its file.
  public var deviceKey: KeyResidence
  /// The TCTI of the TPM in use, nil without one.
  public var tcti: String?
  /// Why no key can be used (the device key is sealed to another TPM), nil when they can.
  public var unavailable: String?

  /// A status of these fields.
  public init(
    newKeys: KeyResidence, deviceKey: KeyResidence, tcti: String? = nil, unavailable: String? = nil
  ) {
    self.newKeys = newKeys
    self.deviceKey = deviceKey
    self.tcti = tcti
    self.unavailable = unavailable
  }

  /// The store of a daemon without a TPM: everything in files.
  public static let file = KeyStoreStatus(newKeys: .file, deviceKey: .file)
}
