import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import TPMKeys
import Testing

/// The store with a TPM (swtpm): the device key sealed by it, SSH keys and persisted-right keys
/// made inside it and signing (and, for rights, doing ECDH) there, older file-sealed keys going on, and a state directory next to another TPM refusing
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

  private let owner = Owner(uid: 1000, appID: "com.example.wallet")

  private func saveRight(_ store: RightStore, _ identifier: String) throws -> PersistedRightRecord {
    try store.saveRight(
      owner: owner, identifier: identifier, requirement: "default", domainStateHash: nil,
      secret: Array("pin 1234".utf8))
  }

  /// The right's key signs (verified with its public key) and opens ECIES ciphertext made for it,
  /// through the store.
  private func rightKeyWorks(_ store: RightStore, _ record: PersistedRightRecord) throws -> Bool {
    let message = Array("pay Bob 10".utf8)
    let signature = try store.rightSignature(for: record, of: message)
    let ciphertext = try ECIES.encrypt(Array("for the wallet".utf8), to: record.publicKey)
    let shared = try store.rightSharedSecret(
      for: record, with: ECIES.ephemeralKey(of: ciphertext))
    let plaintext = try ECIES.open(ciphertext, sharedSecret: shared)
    return record.publicKey.isValidSignature(signature, for: message)
      && plaintext == Array("for the wallet".utf8)
  }

  @Test func aPersistedRightsKeyIsMadeInTheTPMSignsDecryptsAndSurvivesAReopen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let software = try SoftwareTPM()
    let store = try open(directory, software)
    let record = try saveRight(store, "wallet")
    #expect(record.residence == .tpm)
    #expect(try store.right(owner: owner, identifier: "wallet") == record)
    #expect(try rightKeyWorks(store, record))
    #expect(try store.secret(for: record) == Array("pin 1234".utf8))
    #expect(throws: RightStoreError.self) { try store.privateKey(for: record) }
    let peer = try P256PrivateKey.generate()
    #expect(
      try store.rightSharedSecret(for: record, with: peer.publicKey)
        == peer.sharedSecret(with: record.publicKey))
    let reopened = try open(directory, software)
    #expect(try reopened.right(owner: owner, identifier: "wallet") == record)
    #expect(try rightKeyWorks(reopened, record))
    for _ in 0..<20 { _ = try reopened.rightSignature(for: record, of: [7]) }
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func aFileSealedRightGoesOnNextToNewTPMRights() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let old = try saveRight(directory.openStore(), "old")
    #expect(old.residence == .file)
    let software = try SoftwareTPM()
    let store = try open(directory, software)
    let new = try saveRight(store, "new")
    #expect(try store.right(owner: owner, identifier: "old")?.residence == .file)
    #expect(new.residence == .tpm)
    #expect(try rightKeyWorks(store, old))
    #expect(try rightKeyWorks(store, new))
    #expect(try store.privateKey(for: old).publicKey == old.publicKey)
  }

  @Test func aRightsKeyNextToAnotherTPMIsUnavailable() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (first, other) = (try SoftwareTPM(), try SoftwareTPM())
    let record = try saveRight(open(directory, first), "wallet")
    let store = try open(directory, other)
    do {
      _ = try store.rightSignature(for: record, of: [1])
      Issue.record("a right's key signed next to another TPM")
    } catch let error as RightStoreError {
      #expect("\(error)".contains("sealed to another TPM"), "\(error)")
    }
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
