import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Applying feeds")
struct FeedApplyTests {
    @Test("the first apply subscribes the show and inserts every episode, none marked new")
    func firstApplySubscribes() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        var feed = SampleFeed.feed(1...3)
        feed.author = "Someone"
        feed.showType = .serial
        feed.isExplicit = false
        feed.podcastGUID = "c0ffee"
        feed.persons = [FeedPerson(name: "Host", href: URL(string: "https://example.org/host"))]
        feed.funding = [FeedFunding(url: URL(string: "https://example.org/donate")!, title: "Support us")]
        let result = try await store.apply(feed: feed, fetchedFrom: SampleFeed.url, etag: "\"e1\"",
                                           lastModified: "Mon, 01 Jan 2024 00:00:00 GMT",
                                           at: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(result.isNewShow)
        #expect((result.inserted, result.updated, result.unchanged, result.duplicates) == (3, 0, 0, 0))

        let show = try #require(try await store.show(result.showID))
        #expect(show.feedURL == SampleFeed.url)
        #expect(show.title == "A Show" && show.author == "Someone")
        #expect(show.showType == .serial && show.isExplicit == false && show.podcastGUID == "c0ffee")
        #expect(show.refresh.etag == "\"e1\"")
        #expect(show.refresh.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(show.refresh.lastRefreshed == Date(timeIntervalSince1970: 1_750_000_000))
        #expect(show.unplayedCount == 3 && show.newCount == 0)
        let detail = try #require(try await store.showDetail(result.showID))
        #expect(detail.persons == feed.persons && detail.funding == feed.funding)
        #expect(try await store.episodes(of: result.showID, limit: 10).map(\.title)
                == ["Episode 3", "Episode 2", "Episode 1"])
    }

    @Test("re-applying reports inserted, updated and unchanged, and writes only what changed")
    func reapplyCounts() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let first = try await store.apply(feed: SampleFeed.feed(1...3), fetchedFrom: SampleFeed.url,
                                          etag: nil, lastModified: nil)

        let same = try await store.apply(feed: SampleFeed.feed(1...3), fetchedFrom: SampleFeed.url,
                                         etag: nil, lastModified: nil)
        #expect(!same.isNewShow && same.showID == first.showID)
        #expect((same.inserted, same.updated, same.unchanged) == (0, 0, 3))

        // Watch which rows get written: a trigger counts updates of episodes.
        let observer = try directory.openConnection()
        try observer.executeScript("""
            CREATE TABLE written (id INTEGER) STRICT;
            CREATE TRIGGER count_updates AFTER UPDATE ON episodes BEGIN INSERT INTO written VALUES (new.id); END;
            """)
        var feed = SampleFeed.feed(1...4)
        feed.episodes[1].title = "Episode 3, corrected"   // feed order is 4, 3, 2, 1
        let next = try await store.apply(feed: feed, fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        #expect((next.inserted, next.updated, next.unchanged) == (1, 1, 2))
        #expect(try observer.count("written") == 1)

        let titles = try await store.episodes(of: first.showID, limit: 10).map(\.title)
        #expect(titles == ["Episode 4", "Episode 3, corrected", "Episode 2", "Episode 1"])
        // Arrived after subscribing: new.
        #expect(try await store.newEpisodes(limit: 10).map(\.title) == ["Episode 4"])
    }

    @Test("an update keeps what the user did with the episode")
    func updateKeepsUserState() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let showID = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil).showID
        let episodes = try await store.episodes(of: showID, limit: 10)
        try await store.setPlayed([episodes[1].id], played: true)
        try await store.savePositions([ResumePositionUpdate(key: .episode(episodes[0].id), position: 30, duration: nil)])
        try await store.enqueue([episodes[0].id])

        var feed = SampleFeed.feed(1...2)
        feed.episodes = feed.episodes.map { var episode = $0; episode.description = "Rewritten notes"; return episode }
        let result = try await store.apply(feed: feed, fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        #expect(result.updated == 2)

        let after = try await store.episodes(of: showID, limit: 10)
        #expect(after.map(\.id) == episodes.map(\.id))
        #expect(after[1].isPlayed)
        #expect(after[0].resumePosition?.position == 30)
        #expect(try await store.queue().map(\.id) == [episodes[0].id])
        #expect(try await store.episode(episodes[0].id)?.description == "Rewritten notes")
    }

    @Test("identity: guid first, else the enclosure URL, else title and date")
    func identityRules() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let noGUID = FeedEpisode(title: "By enclosure", published: SampleFeed.date(day: 1),
                                 enclosures: [FeedEnclosure(url: URL(string: "https://media.example.org/x.mp3")!)])
        let nothingButTitle = FeedEpisode(title: "By title", published: SampleFeed.date(day: 2))
        let withGUID = SampleFeed.episode(3)
        let showID = try await store.apply(feed: Feed(episodes: [withGUID, noGUID, nothingButTitle]),
                                           fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil).showID
        let ids = Dictionary(uniqueKeysWithValues: try await store.episodes(of: showID, limit: 10)
            .map { ($0.title ?? "", $0.id) })

        // Each keeps its identity through edits of everything but what identifies it.
        var renamedGUID = withGUID
        renamedGUID.title = "Renamed"
        renamedGUID.enclosures = [FeedEnclosure(url: URL(string: "https://cdn.example.org/moved.mp3")!)]
        var renamedEnclosure = noGUID
        renamedEnclosure.title = "Renamed by enclosure"
        renamedEnclosure.published = SampleFeed.date(day: 9)
        var redescribedTitle = nothingButTitle
        redescribedTitle.description = "Now with notes"
        let result = try await store.apply(feed: Feed(episodes: [renamedGUID, renamedEnclosure, redescribedTitle]),
                                           fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        #expect((result.inserted, result.updated) == (0, 3))
        let after = try await store.episodes(of: showID, limit: 10)
        #expect(Set(after.map(\.id)) == Set(ids.values))
        #expect(after.first { $0.id == ids["Episode 3"] }?.title == "Renamed")
        #expect(after.first { $0.id == ids["By enclosure"] }?.title == "Renamed by enclosure")

        // A title-and-date episode whose date changes is a different episode.
        var redated = nothingButTitle
        redated.published = SampleFeed.date(day: 5)
        let redatedResult = try await store.apply(feed: Feed(episodes: [redated]), fetchedFrom: SampleFeed.url,
                                                  etag: nil, lastModified: nil)
        #expect(redatedResult.inserted == 1)
    }

    @Test("a re-run with the same title and a new guid is a new episode")
    func reRunIsNewEpisode() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let original = SampleFeed.episode(1, guid: "original", title: "Best of the year")
        let showID = try await store.apply(feed: Feed(episodes: [original]), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil).showID
        let rerun = SampleFeed.episode(2, guid: "rerun", title: "Best of the year",
                                       enclosure: "https://media.example.org/1.mp3")
        let result = try await store.apply(feed: Feed(episodes: [rerun, original]), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil)
        #expect((result.inserted, result.unchanged) == (1, 1))
        let episodes = try await store.episodes(of: showID, limit: 10)
        #expect(episodes.count == 2)
        #expect(episodes.allSatisfy { $0.title == "Best of the year" })
    }

    @Test("an item repeating an earlier item's guid is counted and skipped")
    func duplicatesAreSkipped() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let first = SampleFeed.episode(2, guid: "same", title: "Listed first")
        let second = SampleFeed.episode(1, guid: "same", title: "Listed second")
        let result = try await store.apply(feed: Feed(episodes: [first, second]), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil)
        #expect((result.inserted, result.duplicates) == (1, 1))
        #expect(try await store.episodes(of: result.showID, limit: 10).map(\.title) == ["Listed first"])
    }

    @Test("undated episodes sort as the feed lists them")
    func undatedEpisodesKeepFeedOrder() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let feed = Feed(episodes: ["Top", "Middle", "Bottom"].map { FeedEpisode(guid: $0, title: $0) })
        let showID = try await store.apply(feed: feed, fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil).showID
        #expect(try await store.episodes(of: showID, limit: 10).map(\.title) == ["Top", "Middle", "Bottom"])
        #expect(try await store.episodes(of: showID, sort: .oldestFirst, limit: 10).map(\.title)
                == ["Bottom", "Middle", "Top"])
    }

    @Test("an episode's media, chapters, transcripts, persons and funding round-trip")
    func episodeDetailRoundTrip() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        var episode = SampleFeed.episode(1)
        episode.subtitle = "Teaser"
        episode.author = "Guest Author"
        episode.link = URL(string: "https://example.org/1")
        episode.contentHTML = "<p>Notes</p>"
        episode.imageURL = URL(string: "https://images.example.org/1.jpg")
        episode.season = 2
        episode.seasonName = "Second"
        episode.number = 7
        episode.episodeType = .bonus
        episode.isExplicit = true
        episode.enclosures.append(FeedEnclosure(url: URL(string: "https://media.example.org/1.ogg")!, mimeType: "audio/ogg"))
        episode.chapters = [FeedChapter(start: 0, title: "Intro"),
                            FeedChapter(start: 61.5, title: "Main", url: URL(string: "https://example.org/main"))]
        episode.chaptersURL = URL(string: "https://example.org/1/chapters.json")
        episode.chaptersType = "application/json+chapters"
        episode.transcripts = [FeedTranscript(url: URL(string: "https://example.org/1.vtt")!, type: "text/vtt",
                                              language: "en", rel: "captions")]
        episode.persons = [FeedPerson(name: "Guest", role: "guest")]
        episode.funding = [FeedFunding(url: URL(string: "https://example.org/tip")!)]
        let showID = try await store.apply(feed: Feed(title: "T", episodes: [episode]), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil, at: SampleFeed.date(day: 30)).showID
        let id = try #require(try await store.episodes(of: showID, limit: 1).first?.id)
        let detail = try #require(try await store.episode(id))
        #expect(detail.summary.showTitle == "T")
        #expect(detail.summary.published == SampleFeed.date(day: 1))
        #expect(detail.summary.mediaURL == URL(string: "https://media.example.org/1.mp3"))
        #expect(detail.summary.mediaType == "audio/mpeg")
        #expect(detail.guid == "guid-1" && detail.subtitle == "Teaser" && detail.author == "Guest Author")
        #expect(detail.link == episode.link && detail.contentHTML == "<p>Notes</p>")
        #expect(detail.description == "About episode 1.")
        #expect(detail.summary.imageURL == episode.imageURL)
        #expect(detail.season == 2 && detail.seasonName == "Second" && detail.number == 7)
        #expect(detail.episodeType == .bonus && detail.isExplicit == true)
        #expect(detail.chaptersURL == episode.chaptersURL && detail.chaptersType == episode.chaptersType)
        #expect(detail.firstSeen == SampleFeed.date(day: 30))
        #expect(detail.enclosures == episode.enclosures)
        #expect(detail.chapters == episode.chapters)
        #expect(detail.transcripts == episode.transcripts)
        #expect(detail.persons == episode.persons)
        #expect(detail.funding == episode.funding)

        // Children are replaced, not appended to, when the episode changes.
        episode.chapters.removeFirst()
        episode.persons = []
        _ = try await store.apply(feed: Feed(title: "T", episodes: [episode]), fetchedFrom: SampleFeed.url,
                                  etag: nil, lastModified: nil)
        let updated = try #require(try await store.episode(id))
        #expect(updated.chapters.map(\.title) == ["Main"])
        #expect(updated.persons.isEmpty)
        #expect(updated.enclosures.count == 2)
    }

    @Test("a failure half-way through an apply leaves nothing of that feed")
    func failedApplyLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        // A trigger makes the fourth episode's insert fail, after the show and
        // three episodes (with their enclosures) were written.
        try directory.openConnection().executeScript("""
            CREATE TRIGGER poison BEFORE INSERT ON episodes WHEN new.title = 'Episode 4'
            BEGIN SELECT RAISE(ABORT, 'poisoned'); END;
            """)
        await #expect(throws: SQLiteError.self) {
            try await store.apply(feed: SampleFeed.feed(1...6), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        }
        let connection = try directory.openConnection()
        for table in ["shows", "episodes", "enclosures"] {
            #expect(try connection.count(table) == 0, "\(table)")
        }

        // The same for an update of a show that was already there.
        let showID = try await store.apply(feed: SampleFeed.feed(1...3), fetchedFrom: SampleFeed.url,
                                           etag: "\"old\"", lastModified: nil).showID
        var renamed = SampleFeed.feed(1...6, title: "Renamed")
        renamed.episodes = renamed.episodes.map { var episode = $0; episode.description = "changed"; return episode }
        await #expect(throws: SQLiteError.self) {
            try await store.apply(feed: renamed, fetchedFrom: SampleFeed.url, etag: "\"new\"", lastModified: nil)
        }
        let show = try #require(try await store.show(showID))
        #expect(show.title == "A Show" && show.refresh.etag == "\"old\"")
        #expect(try connection.count("episodes") == 3)
        #expect(try await store.episode(EpisodeID(rawValue: 1))?.description == "About episode 1.")
    }

    @Test("refresh outcomes: not modified keeps validators unless new ones come, failures are kept until a success")
    func refreshOutcomes() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let showID = try await store.apply(feed: SampleFeed.feed(1...1), fetchedFrom: SampleFeed.url,
                                           etag: "\"a\"", lastModified: "yesterday", at: SampleFeed.date(day: 1)).showID
        try await store.recordRefresh(of: showID, outcome: .notModified(etag: "\"b\"", lastModified: nil),
                                      at: SampleFeed.date(day: 2))
        var show = try #require(try await store.show(showID))
        #expect(show.refresh.etag == "\"b\"" && show.refresh.lastModified == "yesterday")
        #expect(show.refresh.lastRefreshed == SampleFeed.date(day: 2))

        let failure = RefreshFailure(kind: .httpStatus, message: "HTTP 503")
        try await store.recordRefresh(of: showID, outcome: .failed(failure), at: SampleFeed.date(day: 3))
        show = try #require(try await store.show(showID))
        #expect(show.refresh.lastFailure == failure)
        #expect(show.refresh.lastRefreshed == SampleFeed.date(day: 2))
        #expect(show.refresh.etag == "\"b\"")

        _ = try await store.apply(feed: SampleFeed.feed(1...1), fetchedFrom: SampleFeed.url, etag: nil,
                                  lastModified: nil)
        #expect(try await store.show(showID)?.refresh.lastFailure == nil)

        await #expect(throws: LibraryStoreError.unknownShow(ShowID(rawValue: 999))) {
            try await store.recordRefresh(of: ShowID(rawValue: 999), outcome: .failed(failure))
        }
    }
}
