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
    #expect(try raw.query("PRAGMA user_version") == [["2"]])
    #expect(try raw.query("PRAGMA journal_mode") == [["wal"]])
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
