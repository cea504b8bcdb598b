/// Search matches as `trackcast search --json` prints them: an array of
/// objects with `episode`, `show`, `title`, `where`, `time` (seconds, or
/// null for titles and notes) and `snippet` (the match between `[` and `]`).
public struct SearchMatchJSON: Sendable {
    public let matches: [SearchMatch]

    public init(_ matches: [SearchMatch]) {
        self.matches = matches
    }

    /// Pretty-printed, ending in a newline.
    public var text: String {
        String(decoding: JSONText.array(matches.map(Self.value)).prettyUTF8, as: UTF8.self)
    }

    private static func value(_ match: SearchMatch) -> JSONText {
        .object([
            ("episode", .integer(match.episode.rawValue)),
            ("show", .optional(match.showTitle, JSONText.string)),
            ("title", .optional(match.episodeTitle, JSONText.string)),
            ("where", .string(match.place.name)),
            ("time", .optional(match.place.time, JSONText.number)),
            ("snippet", .string(match.snippet.marked(open: "[", close: "]"))),
        ])
    }
}
