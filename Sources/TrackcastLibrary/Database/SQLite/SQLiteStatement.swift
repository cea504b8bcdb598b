import CSQLite

/// A prepared statement. Owned by its `SQLiteConnection`, which caches it and
/// hands it out to one user at a time.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    /// SQLite's `SQLITE_TRANSIENT`, a macro Swift cannot import: it tells
    /// SQLite to copy the bytes, since Swift's buffer dies when the closure returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(sql: String, connection: OpaquePointer) throws(SQLiteError) {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: result, connection: connection)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "\(values.count) values for \(expected) parameters in: \(sql)")
        }
        for (offset, value) in values.enumerated() {
            try bind(value.sqliteValue, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let result: Int32
        switch value {
        case .null:
            result = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            result = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            result = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            result = text.withUTF8 { bytes in
                // The byte count keeps embedded NULs. An empty string may have no
                // base address, and SQLite would read a nil pointer as NULL, not ''.
                guard let start = bytes.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, Self.transient)
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let blob):
            // An empty blob would have no base address, which SQLite reads as NULL.
            result = blob.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), Self.transient)
            }
        }
        guard result == SQLITE_OK else { throw SQLiteError(code: result, connection: connection) }
    }

    /// Advances to the next row; `false` when the statement has run to completion.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw SQLiteError(code: result, connection: connection)
        }
    }

    /// The current row; valid until the next `step()` or `reset()`.
    var row: SQLiteRow { SQLiteRow(statement: handle) }

    /// Makes the statement ready for its next use and drops its bindings, so a
    /// cached statement never carries values (or a read lock) from one use to the next.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
