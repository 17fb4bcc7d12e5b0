import Glibc
import RightsStorage
import TPMKeys

/// What moving a store's device key into the TPM did.
public enum DeviceKeyMigration: Sendable, Equatable {
  /// `device.key` was sealed by the TPM into `device.key.tpm` and removed.
  case moved
  /// The device key was already sealed by the TPM and no `device.key` was left: nothing to do.
  case alreadyInTPM

  /// Moves the device key of the store in `directory` into `tpm` without changing it: the same 32
  /// bytes are sealed by the TPM (`device.key.tpm`, mode 0600), unsealed again and compared, and
  /// only then is `device.key` removed (and the directory fsynced). Every key, secret and payload
  /// sealed under it goes on opening, and the digests keyed by it stay the same, so a daemon
  /// running meanwhile is not disturbed (it reports the new place after its next start).
  ///
  /// Interrupted between the two steps it leaves both files, holding the same key; run again, it
  /// finishes. Refuses (`.deviceKey`) a `device.key.tpm` that does not unseal to `device.key`'s
  /// bytes (another TPM's, or another key's), and a directory with no device key at all.
  public static func run(directory: String, tpm: TPM) throws -> DeviceKeyMigration {
    try StateDirectory.check(directory)
    let keyPath = directory + "/device.key"
    let sealedPath = directory + "/" + StoreKeys.sealedDeviceKeyName
    guard let key = try DeviceKey.readPrivateFile(at: keyPath, sizes: 32...32) else {
      if DeviceKey.exists(at: sealedPath) { return .alreadyInTPM }
      throw RightStoreError.deviceKey("\(directory) holds no device key to move")
    }
    if !DeviceKey.exists(at: sealedPath) {
      let sealed: TPMKey
      do {
        sealed = try tpm.create(.sealedData(key), auth: [])
      } catch {
        throw RightStoreError.deviceKey(
          "the TPM at \(tpm.tcti) cannot seal the device key: \(error)")
      }
      try DeviceKey.publishPrivateFile(sealed.blobs.encoded, at: sealedPath)
    }
    guard let bytes = try DeviceKey.readPrivateFile(at: sealedPath, sizes: 4...4096),
      let blobs = TPMKeyBlobs(encoded: bytes)
    else {
      throw RightStoreError.deviceKey("\(sealedPath) does not hold a sealed TPM object")
    }
    let unsealed: [UInt8]
    do {
      unsealed = try tpm.unseal(blobs)
    } catch {
      throw RightStoreError.deviceKey(
        "\(sealedPath) does not unseal at \(tpm.tcti) (\(error)); device.key is kept")
    }
    guard unsealed == key else {
      throw RightStoreError.deviceKey(
        "\(sealedPath) seals another key than \(keyPath); both are kept: move the wrong one aside")
    }
    guard unlink(keyPath) == 0 else {
      throw RightStoreError.deviceKey("cannot remove \(keyPath): \(systemError())")
    }
    DeviceKey.syncDirectory(containing: keyPath)
    return .moved
  }
}
