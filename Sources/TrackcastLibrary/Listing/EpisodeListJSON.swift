import Foundation

/// The JSON that `trackcast episodes --json` prints: an array of episodes,
/// each with every key present (`null` when unknown), in a fixed order.
/// Dates are Unix seconds and durations and positions seconds, as in `FeedJSON`.
public struct EpisodeListJSON: Sendable {
    public let episodes: [EpisodeSummary]

    public init(_ episodes: [EpisodeSummary]) {
        self.episodes = episodes
    }

    /// Pretty-printed, ending in a newline.
    public var text: String {
        String(decoding: JSONText.array(episodes.map(Self.value)).prettyUTF8, as: UTF8.self)
    }

    private static func value(_ episode: EpisodeSummary) -> JSONText {
        .object([
            ("id", .integer(episode.id.rawValue)),
            ("show_id", .integer(episode.showID.rawValue)),
            ("show", .optional(episode.showTitle, JSONText.string)),
            ("title", .optional(episode.title, JSONText.string)),
            ("published", .optional(episode.published?.databaseSeconds, JSONText.integer)),
            ("duration", .optional(episode.duration, JSONText.number)),
            ("media_url", .optional(episode.mediaURL?.absoluteString, JSONText.string)),
            ("media_type", .optional(episode.mediaType, JSONText.string)),
            ("played", .bool(episode.isPlayed)),
            ("new", .bool(episode.isNew)),
            ("position", .optional(episode.resumePosition?.position, JSONText.number)),
            ("download", .optional(episode.downloadState?.rawValue, JSONText.string)),
        ])
    }
}
