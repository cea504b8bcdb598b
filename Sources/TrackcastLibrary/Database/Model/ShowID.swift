/// A show's row id in the library.
public struct ShowID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "show \(rawValue)" }
}

extension ShowID: SQLiteBindable {
    var sqliteValue: SQLiteValue { .integer(rawValue) }
}
