import Foundation

/// A value as SQLite stores it.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLiteValue {
    /// `values` as one text parameter, a JSON array, for one statement over
    /// many rows (`SELECT value FROM json_each(?)`) where a statement per row
    /// cost a first sync of 20,000 actions about a fifth of its time.
    static func jsonArray(_ values: some Sequence<Int64>) -> SQLiteValue {
        .text("[" + values.map { String($0) }.joined(separator: ",") + "]")
    }
}
