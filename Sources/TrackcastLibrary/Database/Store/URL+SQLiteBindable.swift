import Foundation

/// URLs are stored as their absolute string, which `URL(string:)` reads back.
extension URL: SQLiteBindable {
    var sqliteValue: SQLiteValue { .text(absoluteString) }
}
