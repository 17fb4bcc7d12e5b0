import CSQLite

/// A direct SQLite connection for tests that tamper with or inspect the store's file behind its back.
/// Used by one test at a time, on one thread.
public final class RawDatabase {
  private let handle: OpaquePointer

  /// Opens the database at `path`.
  public init(path: String) throws {
    var connection: OpaquePointer?
    guard sqlite3_open(path, &connection) == SQLITE_OK, let connection else {
      throw RawDatabaseError(message: "open")
    }
    handle = connection
    sqlite3_busy_timeout(handle, 5_000)
  }

  deinit { sqlite3_close(handle) }

  /// Runs `sql` and returns every row's columns as text.
  @discardableResult
  public func query(_ sql: String) throws -> [[String?]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String?]] = []
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return rows }
      guard status == SQLITE_ROW else {
        throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
      }
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) }
        })
    }
  }
}

/// A failed SQLite call, with SQLite's message.
public struct RawDatabaseError: Error {
  /// What SQLite said.
  public let message: String
}
