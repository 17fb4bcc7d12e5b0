import Foundation
import RightsStorage
import Testing

@testable import RightStore

/// Text reaches SQLite with its byte length, never as a C string: what the store accepts it keeps exactly, and
/// what it would have to key or seal with a NUL byte it refuses.
@Suite("Stored text")
struct StoredTextTests {
  @Test("Text with NUL bytes round-trips exactly and never collides with its prefix")
  func nulBytesRoundTrip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try Database(path: directory.path + "/text.sqlite3")
    try database.execute("CREATE TABLE t (k TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL)")
    let keys = ["a", "a\u{0}b", "a\u{0}", "\u{0}", "", "é\u{0}€𝄞"]
    for (number, key) in keys.enumerated() {
      try database.run("INSERT INTO t (k, n) VALUES (?, ?)", [.text(key), .integer(Int64(number))])
    }
    for (number, key) in keys.enumerated() {
      let found = try database.firstRow("SELECT n, k FROM t WHERE k = ?", [.text(key)]) {
        ($0.integer(0), $0.text(1))
      }
      #expect(found?.0 == Int64(number), "key \(Array(key.utf8))")
      #expect(
        found?.1 == key, "key \(Array(key.utf8)) read back as \(String(describing: found?.1))")
    }
    #expect(try database.firstRow("SELECT COUNT(*) FROM t") { $0.integer(0) } == Int64(keys.count))
    let empty = try database.firstRow("SELECT k IS NULL FROM t WHERE n = 4") { $0.integer(0) }
    #expect(empty == 0, "the empty string is stored as text, not NULL")
  }

  @Test("Identifiers and app ids with a NUL byte are refused; everything else is kept exactly")
  func nulIdentifiersAreRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let refusals: [() throws -> Void] = [
      {
        _ = try store.saveRight(
          owner: alice, identifier: "bank\u{0}x", requirement: "default", domainStateHash: nil,
          secret: nil)
      },
      {
        _ = try store.saveRight(
          owner: Owner(uid: 1000, appID: "com.example\u{0}.evil"), identifier: "bank",
          requirement: "default", domainStateHash: nil, secret: nil)
      },
      {
        _ = try store.createHandoff(
          uid: 1000, appID: "siri\u{0}", payload: [1], expiresAt: Date() + 60)
      },
    ]
    for refusal in refusals {
      do {
        try refusal()
        Issue.record("a NUL byte was accepted")
      } catch let error as RightStoreError {
        guard case .invalidArgument(let detail) = error else {
          Issue.record("expected invalidArgument, got \(error)")
          continue
        }
        #expect(detail.contains("NUL"))
      }
    }
    let owner = Owner(uid: 1000, appID: "com.exämple.wallet 💳")
    let identifier = String(repeating: "ключ-", count: 100)
    let saved = try store.saveRight(
      owner: owner, identifier: identifier, requirement: "default", domainStateHash: nil,
      secret: [0, 0, 1])
    let loaded = try #require(try store.right(owner: owner, identifier: identifier))
    #expect(loaded.identifier == identifier && loaded.owner == owner)
    #expect(try store.secret(for: saved) == [0, 0, 1])
    let handoff = try store.createHandoff(
      uid: 1000, appID: owner.appID, payload: [0, 1, 0], expiresAt: Date() + 60)
    #expect(try store.pendingHandoffs(uid: 1000).map(\.owner.appID) == [owner.appID])
    #expect(try store.liveHandoff(id: handoff, uid: 1000).payload == [0, 1, 0])
  }

  @Test("A handoff row that does not open is left out of the list instead of hiding the others")
  func unreadableRowDoesNotPoisonTheList() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let good = try store.createHandoff(uid: 1000, appID: "a", payload: [1], expiresAt: Date() + 60)
    let bad = try store.createHandoff(uid: 1000, appID: "b", payload: [2], expiresAt: Date() + 60)
    // What an older build left behind: the app id cut at a NUL byte, so the seal no longer opens.
    _ = try store.withDatabase { database in
      try database.run("UPDATE handoffs SET app_id = 'b-cut' WHERE id = ?", [.text(bad)])
    }
    #expect(try store.pendingHandoffs(uid: 1000).map(\.id) == [good])
    #expect(throws: RightStoreError.self) { try store.liveHandoff(id: bad, uid: 1000) }
    #expect(try store.liveHandoff(id: good, uid: 1000).payload == [1])
  }
}
