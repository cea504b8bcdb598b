/// An episode's row id in the library.
public struct EpisodeID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "episode \(rawValue)" }
}

extension EpisodeID: SQLiteBindable {
    var sqliteValue: SQLiteValue { .integer(rawValue) }
}
