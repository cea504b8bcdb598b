import Foundation

/// The JSON that `trackcast feed parse FILE --json` prints: a flat, stable
/// projection of `Feed` for scripts. Dates are Unix seconds, durations and
/// chapter starts seconds, and every key is present, `null` when unknown.
public struct FeedJSON: Encodable, Sendable {
    public let feed: Feed

    public init(_ feed: Feed) {
        self.feed = feed
    }

    /// Pretty-printed, keys sorted so output is stable across runs and diffable.
    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private enum FeedKey: String, CodingKey {
        case title, link, description, author, language, image
        case newFeedURL = "new_feed_url"
        case locked, funding, episodes
    }

    private enum EpisodeKey: String, CodingKey {
        case guid, title, published, duration, link, description, image, season, number, type, explicit
        case enclosures, chapters
        case chaptersURL = "chapters_url"
        case transcripts, persons
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: FeedKey.self)
        try container.encode(feed.title, forKey: .title)
        try container.encode(feed.link, forKey: .link)
        try container.encode(feed.description, forKey: .description)
        try container.encode(feed.author, forKey: .author)
        try container.encode(feed.language, forKey: .language)
        try container.encode(feed.imageURL, forKey: .image)
        try container.encode(feed.newFeedURL, forKey: .newFeedURL)
        try container.encode(feed.isLocked, forKey: .locked)
        try container.encode(feed.funding.map(Funding.init), forKey: .funding)
        var episodes = container.nestedUnkeyedContainer(forKey: .episodes)
        for episode in feed.episodes {
            try encode(episode, into: episodes.nestedContainer(keyedBy: EpisodeKey.self))
        }
    }

    private func encode(_ episode: FeedEpisode, into container: KeyedEncodingContainer<EpisodeKey>) throws {
        var container = container
        try container.encode(episode.guid, forKey: .guid)
        try container.encode(episode.title, forKey: .title)
        try container.encode(episode.published?.unixSeconds, forKey: .published)
        try container.encode(episode.duration, forKey: .duration)
        try container.encode(episode.link, forKey: .link)
        try container.encode(episode.description, forKey: .description)
        try container.encode(episode.imageURL, forKey: .image)
        try container.encode(episode.season, forKey: .season)
        try container.encode(episode.number, forKey: .number)
        try container.encode(episode.episodeType?.rawValue, forKey: .type)
        try container.encode(episode.isExplicit, forKey: .explicit)
        try container.encode(episode.enclosures.map(Enclosure.init), forKey: .enclosures)
        try container.encode(episode.chapters.map(Chapter.init), forKey: .chapters)
        try container.encode(episode.chaptersURL, forKey: .chaptersURL)
        try container.encode(episode.transcripts.map(Transcript.init), forKey: .transcripts)
        try container.encode(episode.persons.map(Person.init), forKey: .persons)
    }

    // Synthesised `Encodable` skips `nil`s; these spell out each key so `null` is written.

    private struct Funding: Encodable {
        var url: URL
        var title: String?
        init(_ funding: FeedFunding) { (url, title) = (funding.url, funding.title) }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(url, forKey: .url)
            try c.encode(title, forKey: .title)
        }
        enum Key: String, CodingKey { case url, title }
    }

    private struct Enclosure: Encodable {
        var enclosure: FeedEnclosure
        init(_ enclosure: FeedEnclosure) { self.enclosure = enclosure }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(enclosure.url, forKey: .url)
            try c.encode(enclosure.mimeType, forKey: .mimeType)
            try c.encode(enclosure.length, forKey: .length)
        }
        enum Key: String, CodingKey { case url, mimeType = "mime_type", length }
    }

    private struct Chapter: Encodable {
        var chapter: FeedChapter
        init(_ chapter: FeedChapter) { self.chapter = chapter }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(chapter.start, forKey: .start)
            try c.encode(chapter.title, forKey: .title)
            try c.encode(chapter.url, forKey: .url)
            try c.encode(chapter.imageURL, forKey: .image)
        }
        enum Key: String, CodingKey { case start, title, url, image }
    }

    private struct Transcript: Encodable {
        var transcript: FeedTranscript
        init(_ transcript: FeedTranscript) { self.transcript = transcript }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(transcript.url, forKey: .url)
            try c.encode(transcript.type, forKey: .type)
            try c.encode(transcript.language, forKey: .language)
        }
        enum Key: String, CodingKey { case url, type, language }
    }

    private struct Person: Encodable {
        var person: FeedPerson
        init(_ person: FeedPerson) { self.person = person }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(person.name, forKey: .name)
            try c.encode(person.role, forKey: .role)
            try c.encode(person.href, forKey: .href)
            try c.encode(person.imageURL, forKey: .image)
        }
        enum Key: String, CodingKey { case name, role, href, image }
    }
}
