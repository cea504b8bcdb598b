import Foundation

/// Reading the library's stored forms of URLs, dates and enums.
extension SQLiteRow {
    func url(_ column: Int32) -> URL? {
        optionalString(column).flatMap(URL.init(string:))
    }

    func date(_ column: Int32) -> Date {
        Date(databaseSeconds: int64(column))
    }

    func optionalDate(_ column: Int32) -> Date? {
        optionalInt64(column).map(Date.init(databaseSeconds:))
    }

    /// `nil` for NULL and for a value this version does not know.
    func enumeration<Value: RawRepresentable>(_ column: Int32, as type: Value.Type) -> Value? where Value.RawValue == String {
        optionalString(column).flatMap(Value.init(rawValue:))
    }
}
