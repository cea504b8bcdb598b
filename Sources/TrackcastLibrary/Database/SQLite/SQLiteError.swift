import CSQLite

/// A failed SQLite call: the result code SQLite returned and its message.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    public let extendedCode: Int32
    public let message: String

    /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19); what callers usually branch on.
    public var code: Int32 { extendedCode & 0xFF }

    /// The file is not a database, or is one that is damaged (truncated, overwritten).
    public var isCorruption: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    public init(extendedCode: Int32, message: String) {
        self.extendedCode = extendedCode
        self.message = message
    }

    /// The error a connection last recorded, with `code` as the fallback when
    /// there is no connection to ask (opening failed before one existed).
    init(code: Int32, connection: OpaquePointer?) {
        if let connection {
            self.init(extendedCode: sqlite3_extended_errcode(connection),
                      message: String(cString: sqlite3_errmsg(connection)))
        } else {
            self.init(extendedCode: code, message: String(cString: sqlite3_errstr(code)))
        }
    }

    public var description: String { "SQLite error \(extendedCode): \(message)" }
}
