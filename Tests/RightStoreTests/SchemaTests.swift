import Foundation
import RightStore
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
    #expect(try raw.query("PRAGMA user_version") == [["3"]])
    #expect(try raw.query("PRAGMA journal_mode") == [["wal"]])
  }

  @Test("A version 2 file gains the ssh_keys table and keeps its rights")
  func migratesVersionTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let before = try directory.openStore().saveRight(
      owner: alice, identifier: "kept", requirement: "default", domainStateHash: nil, secret: nil)
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query("DROP TABLE ssh_keys")
    try raw.query("PRAGMA user_version = 2")
    let store = try directory.openStore()
    #expect(try raw.query("PRAGMA user_version") == [["3"]])
    #expect(try store.right(owner: alice, identifier: "kept") == before)
    _ = try store.createSSHKey(
      uid: 1000, name: "new", policy: "biometrics", reuseSeconds: 0, maxKeysPerUID: 1)
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
