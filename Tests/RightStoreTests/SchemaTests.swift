import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Testing

@Suite("Schema versions")
struct SchemaTests {
  @Test("A new store is at the current schema version, WAL mode, and reopening keeps it")
  func freshStoreVersion() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.openStore()
    _ = try directory.openStore()
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    #expect(try raw.query("PRAGMA user_version") == [["6"]])
    #expect(try raw.query("PRAGMA journal_mode") == [["wal"]])
  }

  @Test("A version 2 file gains the ssh_keys table and keeps its rights")
  func migratesVersionTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let before = try directory.openStore().saveRight(
      owner: alice, identifier: "kept", requirement: "default", domainStateHash: nil, secret: nil)
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query("DROP TABLE enrolment_generations")
    try raw.query("DROP TABLE ssh_keys")
    try Self.dropKeyStoreColumns(of: ["rights"], in: raw)
    try raw.query("PRAGMA user_version = 2")
    let store = try directory.openStore()
    #expect(try raw.query("PRAGMA user_version") == [["6"]])
    #expect(try store.right(owner: alice, identifier: "kept") == before)
    _ = try store.createSSHKey(
      uid: 1000, name: "new", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 1)
  }

  /// Takes a current file back to before version 5: without the columns saying where keys live.
  static func dropKeyStoreColumns(of tables: [String], in raw: RawDatabase) throws {
    if tables.contains("ssh_keys") {
      try raw.query("ALTER TABLE ssh_keys DROP COLUMN keep_on_lock")
    }
    for table in tables {
      try raw.query("ALTER TABLE \(table) DROP COLUMN tpm_key")
      try raw.query("ALTER TABLE \(table) DROP COLUMN key_store")
    }
  }

  @Test("A version 5 file gains whether a key keeps its window on lock; its keys close on lock")
  func migratesVersionFive() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let before = try directory.openStore().createSSHKey(
      uid: 1000, name: "old", policy: "any", reuseSeconds: 30, maxKeysPerUID: 2)
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query("ALTER TABLE ssh_keys DROP COLUMN keep_on_lock")
    try raw.query("PRAGMA user_version = 5")
    let store = try directory.openStore()
    #expect(try raw.query("PRAGMA user_version") == [["6"]])
    #expect(try store.sshKeys(uid: 1000) == [before])
    #expect(before.keepOnLock == false)
    let kept = try store.createSSHKey(
      uid: 1000, name: "kept", policy: "any", reuseSeconds: 30, keepOnLock: true,
      maxKeysPerUID: 2)
    #expect(try store.sshKey(uid: 1000, name: "kept") == kept)
    #expect(kept.keepOnLock)
  }

  @Test("A version 4 file gains where each key lives; its SSH keys are file-sealed and still sign")
  func migratesVersionFour() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let before = try directory.openStore().createSSHKey(
      uid: 1000, name: "old", policy: "any", reuseSeconds: 0, maxKeysPerUID: 1)
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try Self.dropKeyStoreColumns(of: ["rights", "ssh_keys"], in: raw)
    try raw.query("PRAGMA user_version = 4")
    let store = try directory.openStore()
    #expect(try raw.query("PRAGMA user_version") == [["6"]])
    #expect(try store.sshKeys(uid: 1000) == [before])
    #expect(before.residence == .file)
    let signature = try store.sshSignature(for: before, of: [1, 2])
    #expect(before.publicKey.isValidSignature(signature, for: [1, 2]))
  }

  @Test("A version 3 file gains the enrolment_generations table; a generation round-trips")
  func migratesVersionThree() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.openStore()
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query("DROP TABLE enrolment_generations")
    try Self.dropKeyStoreColumns(of: ["rights", "ssh_keys"], in: raw)
    try raw.query("PRAGMA user_version = 3")
    let store = try directory.openStore()
    #expect(try raw.query("PRAGMA user_version") == [["6"]])
    #expect(try store.enrolmentGenerations().isEmpty)
    let record = EnrolmentGenerationRecord(uid: 1000, generation: 2, observed: "ab12")
    try store.saveEnrolmentGeneration(record)
    try store.saveEnrolmentGeneration(
      EnrolmentGenerationRecord(uid: 1001, generation: 1, observed: ""))
    try store.saveEnrolmentGeneration(
      EnrolmentGenerationRecord(uid: 1000, generation: 3, observed: "cd34"))
    let reopened = try directory.openStore()
    #expect(
      try reopened.enrolmentGenerations().sorted { $0.uid < $1.uid } == [
        EnrolmentGenerationRecord(uid: 1000, generation: 3, observed: "cd34"),
        EnrolmentGenerationRecord(uid: 1001, generation: 1, observed: ""),
      ])
  }

  @Test("A file from a newer build is refused as corrupt instead of being misread")
  func refusesNewerSchema() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.openStore()
    try RawDatabase(path: directory.path + "/rights.sqlite3").query("PRAGMA user_version = 99")
    #expect {
      _ = try directory.openStore()
    } throws: { error in
      guard case .corrupt(let detail) = error as? RightStoreError else { return false }
      return detail.contains("99")
    }
  }
}
