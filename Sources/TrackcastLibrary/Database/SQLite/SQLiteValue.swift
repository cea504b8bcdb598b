/// A value as SQLite stores it. Blobs are left out: the library stores none.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}
