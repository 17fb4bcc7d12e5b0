import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import TPMKeys
import Testing

/// Moving a file store's device key into the TPM (`DeviceKeyMigration`, `localauthd
/// --migrate-device-key`): the same key re-sealed by the TPM, `device.key` removed, every key
/// sealed under it still opening; a second run does nothing; a `device.key.tpm` of another TPM is
/// refused and `device.key` kept.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "needs swtpm (make test-deps)"))
struct DeviceKeyMigrationTests {
  private let owner = Owner(uid: 1000, appID: "com.example.wallet")

  @Test func theDeviceKeyMovesIntoTheTPMAndEveryOldKeyStillOpens() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.openStore()
    let right = try file.saveRight(
      owner: owner, identifier: "wallet", requirement: "default", domainStateHash: nil,
      secret: [1, 2, 3])
    let ssh = try file.createSSHKey(
      uid: 1000, name: "laptop", policy: "any", reuseSeconds: 0, maxKeysPerUID: 8)
    let digestKey = file.digestKey
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    #expect(try DeviceKeyMigration.run(directory: directory.path, tpm: tpm) == .moved)
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/device.key"))
    #expect(try DeviceKeyMigration.run(directory: directory.path, tpm: tpm) == .alreadyInTPM)

    let store = try RightStore(directory: directory.path, keys: .tpm(tpm))
    #expect(store.keyStore.deviceKey == .tpm)
    #expect(store.digestKey == digestKey)
    #expect(try store.right(owner: owner, identifier: "wallet")?.residence == .file)
    #expect(try store.secret(for: right) == [1, 2, 3])
    let signature = try store.rightSignature(for: right, of: [9])
    #expect(right.publicKey.isValidSignature(signature, for: [9]))
    let sshSignature = try store.sshSignature(for: ssh, of: [9])
    #expect(ssh.publicKey.isValidSignature(sshSignature, for: [9]))
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func aSealedKeyOfAnotherTPMIsRefusedAndDeviceKeyKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.openStore()
    let (first, other) = (try SoftwareTPM(), try SoftwareTPM())
    #expect(
      try DeviceKeyMigration.run(directory: directory.path, tpm: TPM(tcti: first.tcti)) == .moved)
    // An interrupted move left both files: put device.key back beside another TPM's sealed key.
    let sealed = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/device.key.tpm"))
    let unsealed = try TPM(tcti: first.tcti).unseal(#require(TPMKeyBlobs(encoded: Array(sealed))))
    FileManager.default.createFile(
      atPath: directory.path + "/device.key", contents: Data(unsealed),
      attributes: [.posixPermissions: 0o600])
    #expect(throws: RightStoreError.self) {
      try DeviceKeyMigration.run(directory: directory.path, tpm: TPM(tcti: other.tcti))
    }
    #expect(FileManager.default.fileExists(atPath: directory.path + "/device.key"))
    // Beside its own TPM the interrupted move finishes.
    #expect(
      try DeviceKeyMigration.run(directory: directory.path, tpm: TPM(tcti: first.tcti)) == .moved)
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/device.key"))
  }
}
