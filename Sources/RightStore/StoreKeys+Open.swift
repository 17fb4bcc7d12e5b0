import LocalAuthCrypto
import RightsStorage
import TPMKeys

extension StoreKeys {
  /// The file holding the device key sealed by the TPM (its TPM blobs, mode 0600).
  static let sealedDeviceKeyName = "device.key.tpm"

  /// The keys of the store in `directory`, whose database is `database`.
  ///
  /// With the file choice: `device.key`, made when missing (unless rows sealed under a lost one
  /// exist). With a TPM: the device key unsealed from `device.key.tpm`; an older store's
  /// `device.key` goes on being used (new keys are still made in the TPM); a new store gets a
  /// device key sealed by the TPM and no `device.key` at all. A `device.key.tpm` another TPM sealed
  /// opens the store with every key unavailable, saying why.
  static func open(_ choice: KeyStoreChoice, directory: String, database: Database) throws
    -> StoreKeys
  {
    let keyPath = directory + "/device.key"
    let sealedPath = directory + "/" + sealedDeviceKeyName
    guard case .tpm(let tpm) = choice else {
      if !DeviceKey.exists(at: keyPath) && DeviceKey.exists(at: sealedPath) {
        throw RightStoreError.deviceKeyMissing(
          "the device key of this store is sealed by a TPM (\(sealedPath)), but the daemon runs without one; set [Keys] Store=tpm (or auto) and TCTI= to that TPM"
        )
      }
      if !DeviceKey.exists(at: keyPath) { try RightStore.refuseNewKey(keyPath, over: database) }
      let key = try DeviceKey.loadOrCreate(at: keyPath)
      return try StoreKeys(deviceKey: key.bytes, tpm: nil, status: .file)
    }
    if DeviceKey.exists(at: sealedPath) {
      return try unsealed(at: sealedPath, by: tpm)
    }
    if DeviceKey.exists(at: keyPath) {
      let key = try DeviceKey.loadOrCreate(at: keyPath)
      return try StoreKeys(
        deviceKey: key.bytes, tpm: tpm,
        status: KeyStoreStatus(newKeys: .tpm, deviceKey: .file, tcti: tpm.tcti))
    }
    try RightStore.refuseNewKey(keyPath, over: database)
    let sealed: TPMKey
    do {
      sealed = try tpm.create(.sealedData(SecureRandom.bytes(DeviceKey.byteCount)), auth: [])
    } catch {
      throw RightStoreError.deviceKey("the TPM at \(tpm.tcti) cannot seal a device key: \(error)")
    }
    // Another process may publish first; then its key is the one read back and used.
    try DeviceKey.publishPrivateFile(sealed.blobs.encoded, at: sealedPath)
    return try unsealed(at: sealedPath, by: tpm)
  }

  /// The keys of the device key sealed in `path`, unsealed by `tpm`.
  private static func unsealed(at path: String, by tpm: TPM) throws -> StoreKeys {
    let status = KeyStoreStatus(newKeys: .tpm, deviceKey: .tpm, tcti: tpm.tcti)
    guard let bytes = try DeviceKey.readPrivateFile(at: path, sizes: 4...4096),
      let blobs = TPMKeyBlobs(encoded: bytes)
    else {
      throw RightStoreError.deviceKey("\(path) does not hold a sealed TPM object")
    }
    do {
      let key = try tpm.unseal(blobs)
      guard key.count == DeviceKey.byteCount else {
        throw RightStoreError.deviceKey("\(path) unseals to \(key.count) bytes, not 32")
      }
      return try StoreKeys(deviceKey: key, tpm: tpm, status: status)
    } catch let error as TPMError where error.kind == .otherTPM {
      var unavailable = status
      unavailable.unavailable =
        "the device key in \(path) is sealed to another TPM: this state directory was made on another machine, or the TPM was cleared"
      return try StoreKeys(deviceKey: nil, tpm: tpm, status: unavailable)
    } catch let error as TPMError {
      throw RightStoreError.deviceKey("the TPM at \(tpm.tcti) cannot unseal \(path): \(error)")
    }
  }
}
