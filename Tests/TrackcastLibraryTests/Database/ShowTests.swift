import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Shows and settings")
struct ShowTests {
    @Test("shows list by title with unplayed counts; show by id and by feed URL")
    func showsList() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let zebra = try await store.apply(feed: SampleFeed.feed(1...3, title: "zebra talk"),
                                          fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil).showID
        let apple = try await store.apply(feed: SampleFeed.feed(1...2, title: "Apple Hour"),
                                          fetchedFrom: SampleFeed.otherURL, etag: nil, lastModified: nil).showID
        let played = try await store.episodes(of: zebra, limit: 1).map(\.id)
        try await store.setPlayed(played, played: true)

        let shows = try await store.shows()
        #expect(shows.map(\.id) == [apple, zebra])
        #expect(shows.map(\.unplayedCount) == [2, 2])
        #expect(try await store.show(zebra)?.title == "zebra talk")
        #expect(try await store.show(feedURL: SampleFeed.otherURL)?.id == apple)
        #expect(try await store.show(ShowID(rawValue: 404)) == nil)
        #expect(try await store.show(feedURL: URL(string: "https://nowhere.example.org/feed")!) == nil)
    }

    @Test("unplayed and new counts stay equal to the episodes they count through every kind of write")
    func countsStayExact() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let connection = try directory.openConnection()
        func expectExactCounts(_ step: String) async throws {
            let actual = try connection.query("""
                SELECT s.id, (SELECT count(*) FROM episodes WHERE show_id = s.id AND played = 0),
                       (SELECT count(*) FROM episodes WHERE show_id = s.id AND is_new = 1)
                FROM shows s ORDER BY s.id
                """) { [$0.int(0), $0.int(1), $0.int(2)] }
            let reported = try await store.shows().sorted { $0.id.rawValue < $1.id.rawValue }
                .map { [Int($0.id.rawValue), $0.unplayedCount, $0.newCount] }
            #expect(reported == actual, "\(step)")
        }
        let a = try await store.apply(feed: SampleFeed.feed(1...4), fetchedFrom: SampleFeed.url,
                                      etag: nil, lastModified: nil).showID
        let b = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.otherURL,
                                      etag: nil, lastModified: nil).showID
        try await expectExactCounts("subscribed")
        _ = try await store.apply(feed: SampleFeed.feed(1...7), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        try await expectExactCounts("new episodes arrived")
        let episodes = try await store.episodes(of: a, limit: 10).map(\.id)
        // Newest first: 7, 6 and 5 are new.
        try await store.setPlayed([episodes[0], episodes[4], episodes[5], episodes[6]], played: true)
        try await store.setPlayed([episodes[0]], played: true)
        try await expectExactCounts("played, one twice")
        try await store.setPlayed([episodes[4]], played: false)
        try await store.clearNew([episodes[2], episodes[2]])
        try await expectExactCounts("unplayed and seen")
        var changed = SampleFeed.feed(1...7)
        changed.episodes = changed.episodes.map { var episode = $0; episode.title! += "!"; return episode }
        _ = try await store.apply(feed: changed, fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        try await expectExactCounts("episodes rewritten by a refresh")
        try await store.unsubscribe(b)
        try await expectExactCounts("unsubscribed")
        #expect(try await store.show(a)?.unplayedCount == 4)
        #expect(try await store.show(a)?.newCount == 1)
    }

    @Test("unsubscribing deletes the show and everything that hangs off it")
    func unsubscribeCascades() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        var feed = SampleFeed.feed(1...3)
        feed.persons = [FeedPerson(name: "Host")]
        feed.funding = [FeedFunding(url: URL(string: "https://example.org/give")!)]
        feed.episodes[0].chapters = [FeedChapter(start: 0, title: "Start")]
        feed.episodes[0].transcripts = [FeedTranscript(url: URL(string: "https://example.org/t.vtt")!)]
        feed.episodes[0].persons = [FeedPerson(name: "Guest", role: "guest")]
        feed.episodes[0].funding = [FeedFunding(url: URL(string: "https://example.org/tip")!)]
        let showID = try await store.apply(feed: feed, fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil).showID
        let kept = try await store.apply(feed: SampleFeed.feed(10...10), fetchedFrom: SampleFeed.otherURL,
                                         etag: nil, lastModified: nil).showID
        let episodes = try await store.episodes(of: showID, limit: 10).map(\.id)
        try await store.enqueue(episodes)
        try await store.savePositions([ResumePositionUpdate(key: .episode(episodes[0]), position: 1, duration: nil),
                                       ResumePositionUpdate(key: .uri(ResumePositionTests.file), position: 2, duration: nil)])
        try await store.setDownload(DownloadRecord(state: .complete), for: episodes[1])

        try await store.unsubscribe(showID)

        let connection = try directory.openConnection()
        #expect(try connection.count("shows") == 1)
        #expect(try connection.count("episodes") == 1)
        for table in ["chapters", "transcripts", "persons", "funding", "queue", "downloads"] {
            #expect(try connection.count(table) == 0, "\(table)")
        }
        // Only the other show's episode's enclosure, and the file's position, remain.
        #expect(try connection.count("enclosures") == 1)
        #expect(try await store.position(for: .uri(ResumePositionTests.file))?.position == 2)
        #expect(try connection.count("resume_positions") == 1)
        #expect(try await store.shows().map(\.id) == [kept])
        await #expect(throws: LibraryStoreError.unknownShow(showID)) { try await store.unsubscribe(showID) }
    }

    @Test("per-show settings default, save and read back")
    func perShowSettings() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        let showID = try await store.apply(feed: SampleFeed.feed(1...1), fetchedFrom: SampleFeed.url,
                                           etag: nil, lastModified: nil).showID
        #expect(try await store.settings(for: showID) == ShowSettings())
        let settings = ShowSettings(playbackSpeed: 1.5, skipIntro: 30, skipOutro: 12.5, autoDownload: true)
        try await store.setSettings(settings, for: showID)
        #expect(try await store.settings(for: showID) == settings)
        #expect(try await store.show(showID)?.settings == settings)
        // A refresh does not touch them.
        _ = try await store.apply(feed: SampleFeed.feed(1...2), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        #expect(try await store.settings(for: showID) == settings)
        #expect(try await store.settings(for: ShowID(rawValue: 55)) == nil)
        await #expect(throws: LibraryStoreError.unknownShow(ShowID(rawValue: 55))) {
            try await store.setSettings(settings, for: ShowID(rawValue: 55))
        }
    }

    @Test("app settings are stored, replaced and removed")
    func appSettings() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.appSetting("speed") == nil)
        try await store.setAppSetting("speed", to: "1.25")
        try await store.setAppSetting("speed", to: "1.5")
        #expect(try await store.appSetting("speed") == "1.5")
        try await store.setAppSetting("speed", to: nil)
        #expect(try await store.appSetting("speed") == nil)
    }

    @Test("the last full refresh's time round-trips, and a value no refresh wrote is no time")
    func lastFullRefresh() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.lastFullRefresh() == nil)
        let time = Date(timeIntervalSince1970: 1_765_000_000.5)
        try await store.setLastFullRefresh(time)
        #expect(try await store.lastFullRefresh() == time)
        // What a damaged or edited library might hold: a Date from these would put the next refresh nowhere.
        for value in ["1e300", "nan", "inf", "-5", "yesterday", ""] {
            try await store.setAppSetting("refresh.last-full", to: value)
            #expect(try await store.lastFullRefresh() == nil, "\(value)")
        }
    }

    @Test("the library survives closing and reopening")
    func reopen() async throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try await LibraryStore(directory: directory.url)
            _ = try await store.apply(feed: SampleFeed.feed(1...3), fetchedFrom: SampleFeed.url, etag: nil,
                                      lastModified: nil)
            try await store.setAppSetting("k", to: "v")
        }
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.shows().map(\.unplayedCount) == [3])
        #expect(try await store.appSetting("k") == "v")
    }
}
