import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// An episode's links are kept as `FeedLink`s (a verbatim address as its
/// text, its URL made when asked for); what an episode encodes must not
/// change with that: the store tells a changed episode by the digest of what
/// it encodes (`EpisodeContentHash`), and a digest hashed otherwise would
/// make every episode of a library look changed at its next refresh.
@Suite("feed links")
struct FeedLinkTests {
    @Test("episodes encode as they did with URL fields: the same content hashes, the same JSON",
          arguments: RealisticFeedCorpus.differential.map(\.name))
    func episodesEncodeAsBefore(name: String) throws {
        let member = try #require(RealisticFeedCorpus.differential.first { $0.name == name })
        let feed = try FeedParser().parse(member.writer.data(), url: URL(string: "https://feeds.example.org/\(name).xml")!)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var linked = 0
        for episode in feed.episodes {
            let before = EpisodeWithURLs(episode)
            #expect(EpisodeContentHash.of(episode) == DigestEncoder.digest(of: before), "\(episode.guid ?? "")")
            #expect(try encoder.encode(episode) == encoder.encode(before), "\(episode.guid ?? "")")
            linked += episode.enclosures.count + episode.transcripts.count + episode.persons.count + (episode.link == nil ? 0 : 1)
        }
        // The corpus has links of every kind to compare.
        #expect(linked > feed.episodes.count * 3)
        #expect(feed.episodes.allSatisfy { $0.chaptersURL != nil && $0.imageURL != nil })
    }

    @Test("a link set through its URL reads back as that URL")
    func settingAURL() {
        var enclosure = FeedEnclosure(url: URL(string: "https://example.org/a.mp3")!)
        enclosure.url = URL(string: "https://example.org/b b.mp3")!
        #expect(enclosure.url.absoluteString == "https://example.org/b%20b.mp3")
        #expect(enclosure.storedURL.absoluteString == "https://example.org/b%20b.mp3")
    }
}

/// `FeedEpisode` and its parts as they were declared with `URL` fields (the
/// same fields in the same order, `Codable` synthesised): what they encode is
/// what every stored content hash was made from.
private struct EpisodeWithURLs: Encodable {
    struct Enclosure: Encodable {
        var url: URL
        var mimeType: String?
        var length: Int64?
    }

    struct Chapter: Encodable {
        var start: TimeInterval
        var title: String
        var url: URL?
        var imageURL: URL?
    }

    struct Transcript: Encodable {
        var url: URL
        var type: String?
        var language: String?
        var rel: String?
    }

    struct Person: Encodable {
        var name: String
        var role: String
        var group: String
        var href: URL?
        var imageURL: URL?
    }

    var guid: String?
    var title: String?
    var subtitle: String?
    var published: Date?
    var duration: TimeInterval?
    var link: URL?
    var description: String?
    var contentHTML: String?
    var author: String?
    var imageURL: URL?
    var season: Int?
    var seasonName: String?
    var number: Int?
    var episodeType: FeedEpisode.EpisodeType?
    var isExplicit: Bool?
    var isBlocked: Bool
    var enclosures: [Enclosure]
    var alternateEnclosures: [FeedAlternateEnclosure]
    var chapters: [Chapter]
    var chaptersURL: URL?
    var chaptersType: String?
    var transcripts: [Transcript]
    var persons: [Person]
    var funding: [FeedFunding]
    var location: FeedLocation?
    var license: FeedLicense?

    init(_ episode: FeedEpisode) {
        guid = episode.guid
        title = episode.title
        subtitle = episode.subtitle
        published = episode.published
        duration = episode.duration
        link = episode.link
        description = episode.description
        contentHTML = episode.contentHTML
        author = episode.author
        imageURL = episode.imageURL
        season = episode.season
        seasonName = episode.seasonName
        number = episode.number
        episodeType = episode.episodeType
        isExplicit = episode.isExplicit
        isBlocked = episode.isBlocked
        enclosures = episode.enclosures.map { Enclosure(url: $0.url, mimeType: $0.mimeType, length: $0.length) }
        alternateEnclosures = episode.alternateEnclosures
        chapters = episode.chapters.map { Chapter(start: $0.start, title: $0.title, url: $0.url, imageURL: $0.imageURL) }
        chaptersURL = episode.chaptersURL
        chaptersType = episode.chaptersType
        transcripts = episode.transcripts.map { Transcript(url: $0.url, type: $0.type, language: $0.language, rel: $0.rel) }
        persons = episode.persons.map { Person(name: $0.name, role: $0.role, group: $0.group, href: $0.href, imageURL: $0.imageURL) }
        funding = episode.funding
        location = episode.location
        license = episode.license
    }
}
