import Foundation
import Testing
@testable import TrackcastLibrary

/// Trackcast's feed parser against podcastparser 0.6.11's golden outputs.
///
/// podcastparser's fields are mapped to Trackcast's model, and podcastparser's
/// "nothing" sentinels to `nil`: `published` 0, `total_time` 0, `file_size` -1,
/// `mime_type` "application/octet-stream" (podcastparser's stand-in for a
/// missing type), `""` for description and link. Fractional seconds, which
/// Trackcast keeps and podcastparser truncates, are compared after truncation.
/// Where Trackcast deliberately behaves differently, the expectation comes
/// from `PodcastparserDeviations` with the reason written there.
@Suite("podcastparser conformance")
struct PodcastparserConformanceTests {
    @Test("the golden pairs are all found")
    func goldenPairsAreFound() {
        // 70 pairs in podcastparser 0.6.11's tests/data; a bundle problem would make this 0.
        #expect(PodcastparserGolden.all.count == 70)
    }

    @Test("golden pair", arguments: PodcastparserGolden.all)
    func goldenPair(_ golden: PodcastparserGolden) throws {
        let parser = FeedParser(options: .init(maxEpisodes: try golden.maxEpisodes()))
        let feed = try parser.parse(try golden.input(), url: golden.feedURL)
        var comparison = Comparison(fixture: golden.name)
        comparison.compareFeed(expected: try golden.expected(), feed: feed)
        comparison.finish()
    }

    @Test("every documented deviation names a real fixture")
    func deviationsNameRealFixtures() {
        let names = Set(PodcastparserGolden.all.map(\.name))
        for deviation in PodcastparserDeviations.all {
            #expect(names.contains(deviation.fixture), "\(deviation)")
        }
    }
}

/// Compares one fixture, consuming the deviations that apply to it so that an
/// unused (stale) deviation fails the test too.
private struct Comparison {
    let fixture: String
    private var unused: [PodcastparserDeviations.Deviation]

    init(fixture: String) {
        self.fixture = fixture
        unused = PodcastparserDeviations.all.filter { $0.fixture == fixture }
    }

    /// The value Trackcast should have for `field`: the deviation's if one is
    /// documented, else podcastparser's (`nil` when podcastparser has no key).
    private mutating func expectation(_ field: String, episode: Int?, podcastparser: Any?) -> Any? {
        if let index = unused.firstIndex(where: { $0.field == field && $0.episode == episode }) {
            return unused.remove(at: index).trackcast.json
        }
        return podcastparser
    }

    mutating func finish() {
        #expect(unused.isEmpty, "deviations documented for \(fixture) but not met: \(unused)")
    }

    // MARK: Feed

    /// podcastparser keys Trackcast does not model, and why.
    static let notModelled: [String: String] = [
        "generator": "which software wrote the feed is of no use to a listener",
        "itunes_categories": "directory categories; the library has no category browser",
        "itunes_keywords": "deprecated by Apple; search uses titles and descriptions",
        "itunes_owner": "the owner's e-mail is for directories, not listeners",
        "paged_feed_first": "RFC 5005 paging is not followed yet",
        "paged_feed_next": "RFC 5005 paging is not followed yet",
    ]

    mutating func compareFeed(expected raw: [String: Any], feed: Feed) {
        var expected = raw
        let context = Comment(rawValue: fixture)
        for key in Self.notModelled.keys { expected.removeValue(forKey: key) }

        // podcastparser names an untitled feed after the URL's file name; Trackcast leaves it nil.
        let title = expected.removeValue(forKey: "title") as? String
        #expect(feed.title == (title == fixture ? nil : title), context)

        func take(_ key: String) -> Any? {
            expectation(key, episode: nil, podcastparser: expected.removeValue(forKey: key))
        }
        #expect(feed.link?.absoluteString == take("link") as? String, context)
        #expect(feed.description == take("description") as? String, context)
        #expect(feed.imageURL?.absoluteString == take("cover_url") as? String, context)
        #expect(feed.newFeedURL?.absoluteString == take("new_url") as? String, context)
        #expect(feed.isLocked == take("import_prohibited") as? Bool, context)
        #expect(feed.showType?.rawValue == take("type") as? String, context)
        #expect(feed.isExplicit == take("explicit") as? Bool, context)
        #expect(feed.language == take("language") as? String, context)
        #expect(feed.author == take("itunes_author") as? String, context)

        // podcastparser keeps one funding URL of each kind; Trackcast keeps them all.
        let fundingURLs = [take("funding_url"), take("payment_url")]
            .compactMap { $0 as? String }
        #expect(feed.funding.map(\.url.absoluteString).sorted() == fundingURLs.sorted(), context)

        let episodes = expected.removeValue(forKey: "episodes") as? [[String: Any]] ?? []
        compareEpisodes(expected: episodes, ours: feed.episodes, showType: feed.showType)

        #expect(expected.isEmpty, "\(fixture): podcastparser fields the test does not map: \(expected.keys.sorted())")
    }

    // MARK: Episodes

    private mutating func compareEpisodes(expected: [[String: Any]], ours: [FeedEpisode], showType: Feed.ShowType?) {
        // Trackcast keeps feed order; podcastparser sorts newest first (oldest first for
        // serial shows). Sorting ours the same way (stably) lines the lists up.
        var sorted = ours.enumerated().sorted { a, b in
            let dateA = a.element.published ?? Date(timeIntervalSince1970: 0)
            let dateB = b.element.published ?? Date(timeIntervalSince1970: 0)
            if dateA == dateB { return a.offset < b.offset }
            return showType == .serial ? dateA < dateB : dateA > dateB
        }.map(\.element)

        // Episodes Trackcast keeps that podcastparser drops are documented by identity.
        while let index = unused.firstIndex(where: { $0.field == "kept episode" }) {
            let deviation = unused.remove(at: index)
            let identity = deviation.trackcast.json as? String
            let match = sorted.firstIndex { $0.identity.key == identity }
            #expect(match != nil, "\(fixture): kept episode \(identity ?? "?") is missing")
            if let match { sorted.remove(at: match) }
        }

        #expect(sorted.count == expected.count, "\(fixture): episode count")
        for (index, (podcastparser, episode)) in zip(expected, sorted).enumerated() {
            compareEpisode(expected: podcastparser, ours: episode, index: index)
        }
    }

    private mutating func compareEpisode(expected raw: [String: Any], ours: FeedEpisode, index: Int) {
        var expected = raw
        let context = Comment(rawValue: "\(fixture) episode \(index)")
        func take(_ key: String) -> Any? {
            expectation(key, episode: index, podcastparser: expected.removeValue(forKey: key))
        }
        func string(_ value: Any?) -> String? {
            guard let string = value as? String, !string.isEmpty else { return nil }
            return string
        }

        #expect(ours.title == take("title") as? String, context)
        #expect(ours.subtitle == take("subtitle") as? String, context)
        #expect(ours.description == string(take("description")), context)
        #expect(ours.contentHTML == take("description_html") as? String, context)
        #expect(ours.link?.absoluteString == string(take("link")), context)
        #expect(ours.author == take("itunes_author") as? String, context)
        #expect(ours.imageURL?.absoluteString == take("episode_art_url") as? String, context)
        #expect(ours.season == take("season") as? Int, context)
        #expect(ours.number == take("number") as? Int, context)
        #expect(ours.episodeType?.rawValue == take("type") as? String, context)
        #expect(ours.isExplicit == take("explicit") as? Bool, context)
        #expect(ours.chaptersURL?.absoluteString == take("chapters_json_url") as? String, context)
        #expect(ours.transcripts.map(\.url.absoluteString) == [take("transcript_url") as? String].compactMap { $0 }, context)

        let published = take("published") as? Int ?? 0
        #expect(ours.published.map { Int(floor($0.timeIntervalSince1970)) } == (published == 0 ? nil : published), context)
        let totalTime = take("total_time") as? Int ?? 0
        #expect((ours.duration.map { Int($0) } ?? 0) == totalTime, context)

        // podcastparser's guid is synthesised from the enclosure URL when the feed has none;
        // Trackcast keeps `guid` nil and makes the enclosure URL the identity instead.
        let guid = take("guid") as? String
        if let ourGUID = ours.guid {
            #expect(ourGUID == guid, context)
        } else {
            #expect(ours.identity.key == guid.map { "url:" + $0 }, context)
        }

        let payment = take("payment_url") as? String
        #expect(ours.funding.map(\.url.absoluteString) == [payment].compactMap { $0 }, context)

        let enclosures = take("enclosures") as? [[String: Any]] ?? []
        #expect(ours.enclosures.count == enclosures.count, context)
        for (enclosure, expected) in zip(ours.enclosures, enclosures) {
            #expect(enclosure.url.absoluteString == expected["url"] as? String, context)
            let size = expected["file_size"] as? Int ?? -1
            #expect(enclosure.length == (size == -1 ? nil : Int64(size)), context)
            let type = expected["mime_type"] as? String
            #expect(enclosure.mimeType == (type == "application/octet-stream" ? nil : type), context)
        }

        let chapters = take("chapters") as? [[String: Any]] ?? []
        #expect(ours.chapters.count == chapters.count, context)
        for (chapter, expected) in zip(ours.chapters, chapters) {
            #expect(Int(chapter.start) == expected["start"] as? Int, context)
            #expect(chapter.title == expected["title"] as? String, context)
            #expect(chapter.url?.absoluteString == expected["href"] as? String, context)
            #expect(chapter.imageURL?.absoluteString == expected["image"] as? String, context)
        }

        let persons = take("persons") as? [[String: Any]] ?? []
        #expect(ours.persons.count == persons.count, context)
        for (person, expected) in zip(ours.persons, persons) {
            #expect(person.name == expected["name"] as? String, context)
            #expect(person.role == expected["role"] as? String, context)
            #expect(person.group == expected["group"] as? String, context)
            #expect(person.href?.absoluteString == expected["href"] as? String, context)
            #expect(person.imageURL?.absoluteString == expected["img"] as? String, context)
        }

        #expect(expected.isEmpty, "\(fixture) episode \(index): podcastparser fields the test does not map: \(expected.keys.sorted())")
    }
}
