import Foundation

/// Where Trackcast deliberately differs from podcastparser on the golden pairs,
/// what it does instead, and why.
enum PodcastparserDeviations {
    struct Deviation: CustomStringConvertible, Sendable {
        var fixture: String
        /// Index in podcastparser's episode list, or `nil` for a feed field.
        var episode: Int?
        /// podcastparser's key, or "kept episode" for an episode podcastparser drops.
        var field: String
        /// Trackcast's value (for "kept episode": its identity key).
        var trackcast: Value
        var reason: Reason

        init(fixture: String, episode: Int? = nil, field: String, trackcast: Value, reason: Reason) {
            (self.fixture, self.episode, self.field, self.trackcast, self.reason) = (fixture, episode, field, trackcast, reason)
        }

        var description: String { "\(fixture) \(episode.map { "episode \($0) " } ?? "")\(field): \(reason.rawValue)" }
    }

    /// A JSON value as podcastparser's files would hold it.
    enum Value: Sendable {
        case null
        case string(String)
        /// A list or object, written as JSON.
        case json(String)

        var json: Any? {
            switch self {
            case .null: return nil
            case .string(let string): return string
            case .json(let text): return try? JSONSerialization.jsonObject(with: Data(text.utf8))
            }
        }
    }

    enum Reason: String, Sendable {
        case verbatimGUID = """
            A guid is an identifier, kept exactly as written. podcastparser resolves a \
            permalink guid against the feed URL ("a" becomes file://tests/data/a), which \
            would give every episode a new identity whenever the feed moves.
            """
        case opaqueGUIDIsNoLink = """
            RSS calls a guid without isPermaLink a permalink, but most such guids are \
            opaque ids; Trackcast takes one as the episode page only if it is an absolute \
            http(s) URL or the feed says isPermaLink="true".
            """
        case atomLinkWithoutType = """
            An Atom link without rel and type is the feed's web page (RFC 4287: rel \
            defaults to alternate); podcastparser only accepts one with type="text/html".
            """
        case atomAuthor = "Atom's author/name is the feed's author; podcastparser reads only itunes:author."
        case atomSummary = """
            Atom's summary is the entry's plain-text summary, used as description; \
            podcastparser ignores it (and falls back to the HTML content reduced to text).
            """
        case duplicateEnclosure = """
            The same URL as enclosure and as media:content is one media file; Trackcast \
            lists it once so the downloader and the UI see one file.
            """
        case noInventedTitle = """
            Trackcast does not invent an episode title from the media file name; the \
            title stays nil and the UI chooses how to show it.
            """
        case identityFromEnclosure = """
            Without a guid the identity is the enclosure URL, not the web page link \
            podcastparser uses: pages get re-organised, media URLs change less.
            """
        case keptWithoutMedia = """
            An item with a title but no media is kept (identity: title and date), as \
            podcastparser keeps Atom entries without media; podcastparser drops such RSS items.
            """
        case keptWithoutTitle = """
            An item with a guid is an episode even without a title; podcastparser drops \
            untitled items that have several enclosures.
            """
    }

    static let all: [Deviation] = atomFeeds + opaqueGUIDs + [
        Deviation(fixture: "image_and_audio", episode: 0, field: "link", trackcast: .null, reason: .opaqueGUIDIsNoLink),
        Deviation(fixture: "permalink", episode: 0, field: "guid", trackcast: .string("episode/1/"), reason: .verbatimGUID),
        Deviation(fixture: "multi_enclosures", episode: 0, field: "enclosures", trackcast: .json("""
            [{"url": "http://cdn.example.org/foo.mp3", "mime_type": "audio/mpeg", "file_size": 28413787}]
            """), reason: .duplicateEnclosure),
        Deviation(fixture: "no_title", episode: 0, field: "title", trackcast: .null, reason: .noInventedTitle),
        Deviation(fixture: "no_guid", episode: 0, field: "guid", trackcast: .string("http://example.com/test.ogg"), reason: .identityFromEnclosure),
        Deviation(fixture: "no_guid", episode: 0, field: "title", trackcast: .null, reason: .noInventedTitle),
        Deviation(fixture: "no_enclosure", field: "kept episode", trackcast: .string("title:-:B"), reason: .keptWithoutMedia),
        Deviation(fixture: "no_title_multi_enclosure", field: "kept episode", trackcast: .string("guid:episode::1"), reason: .keptWithoutTitle),
    ]

    /// Three Atom fixtures share one feed header and entry shape.
    private static let atomFeeds: [Deviation] = ["atom_content_encoded", "atom_published_updated", "atom_updated"].flatMap { name in
        [
            Deviation(fixture: name, field: "link", trackcast: .string("http://example.org/"), reason: .atomLinkWithoutType),
            Deviation(fixture: name, field: "itunes_author", trackcast: .string("John Doe"), reason: .atomAuthor),
            Deviation(fixture: name, episode: 0, field: "description", trackcast: .string("Some text."), reason: .atomSummary),
        ]
    }

    /// Fixtures whose only episode has a bare guid such as "a" and no link.
    private static let opaqueGUIDs: [Deviation] = [
        ("chapters", "episode"), ("duration", "episode"),
        ("itunes_duration", "a"), ("itunes_episode_image", "a"), ("itunes_no_xmlns", "a"), ("itunes_subtitle", "a"),
        ("itunes_xmlns", "a"), ("media_episode_thumbnail", "a"), ("media_episode_thumbnail_group", "a"),
    ].flatMap { name, guid in
        [
            Deviation(fixture: name, episode: 0, field: "guid", trackcast: .string(guid), reason: .verbatimGUID),
            Deviation(fixture: name, episode: 0, field: "link", trackcast: .null, reason: .opaqueGUIDIsNoLink),
        ]
    }
}
