import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Testing

@Suite("SSH keys in the store")
struct SSHKeyStoreTests {
  @Test("A key is made, listed per uid, signs once unsealed, and is deleted")
  func lifecycle() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let made = try store.createSSHKey(
      uid: 1000, name: "work", policy: "biometrics", reuseSeconds: 30, maxKeysPerUID: 4)
    #expect(try store.sshKeys(uid: 1000) == [made])
    #expect(try store.sshKeys(uid: 1001).isEmpty)
    #expect(try store.sshKey(uid: 1001, name: "work") == nil)
    let key = try store.sshPrivateKey(for: made)
    let signature = try key.signature(for: [1, 2, 3])
    #expect(made.publicKey.isValidSignature(signature, for: [1, 2, 3]))
    try store.markSSHKeyUsed(uid: 1000, name: "work", at: Date())
    #expect(try store.sshKey(uid: 1000, name: "work")?.lastUsedAt != nil)
    #expect(try store.deleteSSHKey(uid: 1000, name: "work"))
    #expect(throws: RightStoreError.notFound) { try store.sshPrivateKey(for: made) }
    #expect(try !store.deleteSSHKey(uid: 1000, name: "work"))
  }

  @Test("Names are unique per uid and the per-uid count is bounded")
  func uniqueAndBounded() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    _ = try store.createSSHKey(
      uid: 1000, name: "a", policy: "any", reuseSeconds: 0, maxKeysPerUID: 2)
    #expect(throws: RightStoreError.alreadyExists) {
      try store.createSSHKey(uid: 1000, name: "a", policy: "any", reuseSeconds: 0, maxKeysPerUID: 2)
    }
    _ = try store.createSSHKey(
      uid: 1001, name: "a", policy: "any", reuseSeconds: 0, maxKeysPerUID: 2)
    _ = try store.createSSHKey(
      uid: 1000, name: "b", policy: "any", reuseSeconds: 0, maxKeysPerUID: 2)
    #expect(throws: RightStoreError.limitReached(.sshKeysPerUID, 2)) {
      try store.createSSHKey(uid: 1000, name: "c", policy: "any", reuseSeconds: 0, maxKeysPerUID: 2)
    }
    #expect(try store.sshKeys(uid: 1000).map(\.name) == ["a", "b"])
  }

  @Test("No file of the state directory holds a private key in the clear")
  func noClearPrivateKey() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    var scalars: [[UInt8]] = []
    for name in ["one", "two", "three"] {
      let record = try store.createSSHKey(
        uid: 1000, name: name, policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
      scalars.append(try store.sshPrivateKey(for: record).rawScalar)
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.contains("rights.sqlite3"))
    for file in files {
      let contents = [UInt8](
        try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + file)))
      for scalar in scalars {
        let found =
          contents.count >= scalar.count
          && (0...(contents.count - scalar.count)).contains {
            contents[$0..<$0 + scalar.count].elementsEqual(scalar)
          }
        #expect(!found, "\(file) holds a private scalar in the clear")
      }
    }
  }

  @Test("A sealed key moved to another uid's row no longer opens")
  func sealedKeyBoundToItsRow() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let victim = try store.createSSHKey(
      uid: 1000, name: "work", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    let attacker = try store.createSSHKey(
      uid: 1001, name: "work", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 8)
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query(
      """
      UPDATE ssh_keys SET
        sealed_private_key = (SELECT sealed_private_key FROM ssh_keys WHERE uid = 1000),
        public_key = (SELECT public_key FROM ssh_keys WHERE uid = 1000)
      WHERE uid = 1001
      """)
    var moved = attacker
    moved.publicKey = victim.publicKey
    #expect(throws: RightStoreError.self) { try store.sshPrivateKey(for: moved) }
  }
}
