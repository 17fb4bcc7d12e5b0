import CSQLite
import RightsStorage

/// A value bound to, or read from, an SQL statement.
enum SQLValue {
  case integer(Int64)
  case text(String)
  case blob([UInt8])
  case null

  /// `.text(value)`, or `.null` when `value` is nil.
  static func optionalText(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
  /// `.blob(value)`, or `.null` when `value` is nil.
  static func optionalBlob(_ value: [UInt8]?) -> SQLValue { value.map(SQLValue.blob) ?? .null }
}

/// SQLite's SQLITE_TRANSIENT destructor: SQLite copies the bound bytes before the bind call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement, finalized on deinit. Used on its connection's thread only.
final class Statement {
  private let handle: OpaquePointer
  private let database: Database

  /// Compiles `sql` (`sqlite3_prepare_v2`).
  init(database: Database, sql: String) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil) == SQLITE_OK, let statement
    else {
      throw database.lastError("prepare")
    }
    self.handle = statement
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to parameters 1…n (`sqlite3_bind_*`; text and blobs are copied).
  func bind(_ values: [SQLValue]) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
      case .text(let text): status = bindText(text, at: index)
      case .blob(let bytes):
        status = bytes.withUnsafeBytes { raw in
          raw.isEmpty
            ? sqlite3_bind_zeroblob(handle, index, 0)
            : sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), transient)
        }
      case .null: status = sqlite3_bind_null(handle, index)
      }
      guard status == SQLITE_OK else { throw database.lastError("bind parameter \(index)") }
    }
  }

  /// Binds `text` with its explicit UTF-8 byte length (`sqlite3_bind_text64`), never as a C string, so a
  /// NUL byte inside it is stored like any other byte instead of ending the value early.
  private func bindText(_ text: String, at index: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { bytes in
      // An empty buffer may have no address, which SQLite would bind as NULL: bind "" instead.
      guard let base = bytes.baseAddress, !bytes.isEmpty else {
        return sqlite3_bind_text(handle, index, "", 0, transient)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
        sqlite3_bind_text64(
          handle, index, characters, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
      }
    }
  }

  /// Advances to the next row (`sqlite3_step`); returns false when the statement is done.
  func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw database.lastError("step")
    }
  }

  /// Whether column `index` of the current row is NULL.
  func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

  /// Column `index` as an integer.
  func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// Column `index` as text of its stored byte length (`sqlite3_column_bytes`), NUL bytes included, or nil
  /// when NULL.
  func text(_ index: Int32) -> String? {
    guard !isNull(index) else { return nil }
    let characters = sqlite3_column_text(handle, index)
    let count = Int(sqlite3_column_bytes(handle, index))
    guard let characters, count > 0 else { return "" }
    return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
  }

  /// Column `index` as bytes, or nil when NULL.
  func blob(_ index: Int32) -> [UInt8]? {
    guard !isNull(index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
    return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
  }
}
