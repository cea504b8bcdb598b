import Foundation

/// The JSON that `trackcast feed parse FILE --json` prints: a flat, stable
/// projection of `Feed` for scripts. Dates are Unix seconds, durations and
/// chapter starts seconds, every key is present (`null` when unknown), and
/// keys come in a fixed order, title first and episodes last.
public struct FeedJSON: Sendable {
    public let feed: Feed

    public init(_ feed: Feed) {
        self.feed = feed
    }

    /// Pretty-printed, ending in a newline.
    public var text: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// `text` as UTF-8.
    public func data() -> Data {
        Data(utf8)
    }

    /// `text` as UTF-8, made without the string: for a large feed, checking
    /// the string's UTF-8 again costs a good part of writing it.
    public var utf8: [UInt8] {
        // Room for the descriptions, most of a feed's JSON, and the rest of each episode.
        let capacity = feed.episodes.reduce(4_096) { $0 + ($1.description?.utf8.count ?? 0) + 1_024 }
        return value.prettyUTF8(reservingCapacity: capacity)
    }

    private var value: JSONText {
        .object([
            ("title", .optional(feed.title, JSONText.string)),
            ("link", url(feed.link)),
            ("description", .optional(feed.description, JSONText.string)),
            ("author", .optional(feed.author, JSONText.string)),
            ("language", .optional(feed.language, JSONText.string)),
            ("image", url(feed.imageURL)),
            ("new_feed_url", url(feed.newFeedURL)),
            ("locked", .optional(feed.isLocked, JSONText.bool)),
            ("funding", .array(feed.funding.map { funding in
                .object([("url", url(funding.url)), ("title", .optional(funding.title, JSONText.string))])
            })),
            ("episodes", .elements(count: feed.episodes.count) { episode(feed.episodes[$0]) }),
        ])
    }

    private func episode(_ episode: FeedEpisode) -> JSONText {
        .object([
            ("guid", .optional(episode.guid, JSONText.string)),
            ("title", .optional(episode.title, JSONText.string)),
            ("published", .optional(episode.published?.unixSeconds, JSONText.integer)),
            ("duration", .optional(episode.duration, JSONText.number)),
            ("link", url(episode.link)),
            ("description", .optional(episode.description, JSONText.string)),
            ("image", url(episode.imageURL)),
            ("season", .optional(episode.season) { .integer(Int64($0)) }),
            ("number", .optional(episode.number) { .integer(Int64($0)) }),
            ("type", .optional(episode.episodeType?.rawValue, JSONText.string)),
            ("explicit", .optional(episode.isExplicit, JSONText.bool)),
            ("enclosures", .array(episode.enclosures.map { enclosure in
                .object([
                    ("url", url(enclosure.url)),
                    ("mime_type", .optional(enclosure.mimeType, JSONText.string)),
                    ("length", .optional(enclosure.length, JSONText.integer)),
                ])
            })),
            ("chapters", .array(episode.chapters.map { chapter in
                .object([
                    ("start", .number(chapter.start)),
                    ("title", .string(chapter.title)),
                    ("url", url(chapter.url)),
                    ("image", url(chapter.imageURL)),
                ])
            })),
            ("chapters_url", url(episode.chaptersURL)),
            ("transcripts", .array(episode.transcripts.map { transcript in
                .object([
                    ("url", url(transcript.url)),
                    ("type", .optional(transcript.type, JSONText.string)),
                    ("language", .optional(transcript.language, JSONText.string)),
                ])
            })),
            ("persons", .array(episode.persons.map { person in
                .object([
                    ("name", .string(person.name)),
                    ("role", .string(person.role)),
                    ("href", url(person.href)),
                    ("image", url(person.imageURL)),
                ])
            })),
        ])
    }

    private func url(_ url: URL?) -> JSONText {
        .optional(url?.absoluteString, JSONText.string)
    }
}
