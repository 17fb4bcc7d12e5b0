import CSQLite
import RightsStorage

/// One SQLite connection: WAL, synchronous=FULL, a busy timeout and foreign keys, set at every open.
///
/// Not Sendable: a connection is used by one thread at a time; `RightStore` keeps its only one inside a `Mutex`.
final class Database {
  /// The `sqlite3 *` handle, closed on deinit.
  let handle: OpaquePointer

  /// Opens (creating if needed) the database at `path` and applies the connection pragmas.
  init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws {
    var connection: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let status = sqlite3_open_v2(path, &connection, flags, nil)
    guard status == SQLITE_OK, let connection else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(connection)
      throw RightStoreError.sqlite(code: status, message: "open \(path): \(message)")
    }
    handle = connection
    sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = FULL")
    try execute("PRAGMA foreign_keys = ON")
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more SQL statements without parameters (`sqlite3_exec`), discarding any rows.
  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard status == SQLITE_OK else {
      throw RightStoreError.sqlite(
        code: sqlite3_extended_errcode(handle),
        message: message.map { String(cString: $0) } ?? "exec failed")
    }
  }

  /// Compiles `sql` and binds `values` to its `?` parameters in order.
  func prepare(_ sql: String, _ values: [SQLValue] = []) throws -> Statement {
    let statement = try Statement(database: self, sql: sql)
    try statement.bind(values)
    return statement
  }

  /// Runs a statement that returns no rows; returns the number of rows it changed.
  @discardableResult
  func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
    let statement = try prepare(sql, values)
    while try statement.step() {}
    return Int(sqlite3_changes(handle))
  }

  /// Runs a query and maps every row.
  func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ transform: (Statement) throws -> T)
    throws -> [T]
  {
    let statement = try prepare(sql, values)
    var results: [T] = []
    while try statement.step() { results.append(try transform(statement)) }
    return results
  }

  /// Runs a query and maps its first row, if any.
  func firstRow<T>(_ sql: String, _ values: [SQLValue] = [], _ transform: (Statement) throws -> T)
    throws -> T?
  {
    let statement = try prepare(sql, values)
    return try statement.step() ? transform(statement) : nil
  }

  /// Runs `body` in a write transaction: `BEGIN IMMEDIATE` (so it never fails later with SQLITE_BUSY_SNAPSHOT),
  /// then `COMMIT`, or `ROLLBACK` if `body` or the commit throws.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body(self)
      try execute("COMMIT")
      return result
    } catch {
      if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The error SQLite reports for the last failed call on this connection.
  func lastError(_ context: String) -> RightStoreError {
    .sqlite(
      code: sqlite3_extended_errcode(handle),
      message: "\(context): \(String(cString: sqlite3_errmsg(handle)))")
  }
}
