import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import TPMKeys
import Testing

/// The store with a TPM (swtpm): the device key sealed by it, SSH keys made inside it and signing
/// there, older file-sealed keys going on, and a state directory next to another TPM refusing
/// every key use as sealed to another TPM.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "needs swtpm (make test-deps)"))
struct TPMStoreTests {
  private func open(_ directory: TemporaryDirectory, _ software: SoftwareTPM) throws -> RightStore {
    try RightStore(directory: directory.path, keys: .tpm(TPM(tcti: software.tcti)))
  }

  private func signs(_ store: RightStore, _ record: SSHKeyRecord) throws -> Bool {
    let data = Array("git commit -S".utf8)
    let signature = try store.sshSignature(for: record, of: data)
    return record.publicKey.isValidSignature(signature, for: data)
  }

  @Test func aNewStoreSealsItsDeviceKeyInTheTPMAndMakesSSHKeysThere() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let software = try SoftwareTPM()
    let store = try open(directory, software)
    #expect(store.keyStore == KeyStoreStatus(newKeys: .tpm, deviceKey: .tpm, tcti: software.tcti))
    #expect(FileManager.default.fileExists(atPath: directory.path + "/device.key.tpm"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/device.key"))
    let record = try store.createSSHKey(
      uid: 1000, name: "laptop", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    #expect(record.residence == .tpm)
    #expect(try signs(store, record))
    #expect(throws: RightStoreError.self) { try store.sshPrivateKey(for: record) }
    let reopened = try open(directory, software)
    #expect(try reopened.sshKeys(uid: 1000) == [record])
    #expect(try signs(reopened, record))
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func aFileStoreKeepsItsKeyAndItsKeysAndMakesNewOnesInTheTPM() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let old = try directory.openStore().createSSHKey(
      uid: 1000, name: "old", policy: "any", reuseSeconds: 0, maxKeysPerUID: 8)
    let software = try SoftwareTPM()
    let store = try open(directory, software)
    #expect(store.keyStore.deviceKey == .file)
    #expect(store.keyStore.newKeys == .tpm)
    let new = try store.createSSHKey(
      uid: 1000, name: "new", policy: "any", reuseSeconds: 0, maxKeysPerUID: 8)
    #expect(try store.sshKeys(uid: 1000).map(\.residence) == [.tpm, .file])
    #expect(try signs(store, old))
    #expect(try signs(store, new))
  }

  @Test func aStateDirectoryNextToAnotherTPMRefusesEveryKeyUse() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = try SoftwareTPM()
    let record = try open(directory, first).createSSHKey(
      uid: 1000, name: "laptop", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    let other = try SoftwareTPM()
    let store = try open(directory, other)
    #expect(store.keyStore.unavailable?.contains("sealed to another TPM") == true)
    #expect(try store.sshKeys(uid: 1000) == [record])
    for attempt in [
      { _ = try store.sshSignature(for: record, of: [1]) },
      {
        _ = try store.createSSHKey(
          uid: 1000, name: "second", policy: "any", reuseSeconds: 0, maxKeysPerUID: 8)
      },
    ] {
      do {
        try attempt()
        Issue.record("a key was used next to another TPM")
      } catch let error as RightStoreError {
        guard case .keyUnavailable(let reason) = error else {
          Issue.record("\(error)")
          continue
        }
        #expect(reason.contains("sealed to another TPM"))
      }
    }
    #expect(try other.transientHandles().isEmpty)
  }

  @Test func aTPMSealedStoreOpenedWithoutATPMSaysSo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let software = try SoftwareTPM()
    _ = try open(directory, software).createSSHKey(
      uid: 1000, name: "laptop", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    do {
      _ = try directory.openStore()
      Issue.record("opened a TPM-sealed store without the TPM")
    } catch let error as RightStoreError {
      #expect("\(error)".contains("Store=tpm"))
    }
  }

  @Test func theTPMGoingAwayMidUseIsAClearErrorAndTheStoreGoesOn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let software = try SoftwareTPM()
    let store = try open(directory, software)
    let record = try store.createSSHKey(
      uid: 1000, name: "laptop", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    software.stop()
    do {
      _ = try store.sshSignature(for: record, of: [1])
      Issue.record("signed with the TPM gone")
    } catch let error as RightStoreError {
      #expect("\(error)".contains("does not answer"), "\(error)")
    }
    #expect(try store.sshKeys(uid: 1000) == [record])
  }
}
