import Foundation
import Testing
@testable import TrackcastLibrary

/// FTS5 writes the rows it holds in memory out as a new segment of its
/// index at every statement savepoint, and the store's own writes open one
/// for each episode (its insert fires triggers). The index writer holds its
/// rows to the end of the transaction (`SQLiteConnection.executeAtCommit`),
/// so a transaction's rows are one segment a table, however many episodes
/// it writes; these tests count the segments in FTS5's structure record,
/// with merging off so that every segment written stays to be counted.
@Suite("Search index rows held until commit")
struct SearchIndexSegmentTests {
    let directory: TemporaryDirectory
    let store: LibraryStore
    /// A second connection, as another process would have: it reads the
    /// structure records and turns merging off.
    let other: SQLiteConnection

    init() async throws {
        directory = try TemporaryDirectory()
        store = try await LibraryStore(directory: directory.url)
        other = try directory.openConnection()
        for table in ["search_heads", "search_notes"] {
            try other.execute("INSERT INTO \(table) (\(table), rank) VALUES ('automerge', 0)")
        }
    }

    /// Segments in an FTS5 table's index: the second varint of its
    /// structure record (row 10 of its `_data` table), after a 4-byte cookie
    /// and the number of levels.
    func segments(_ table: String) throws -> Int {
        let record = try Array(#require(try other.queryFirst("SELECT block FROM \(table)_data WHERE id = 10") { $0.optionalData(0) } ?? nil))
        var offset = 4
        func varint() throws -> Int {
            var value = 0
            while true {
                let byte = try #require(offset < record.count ? record[offset] : nil)
                offset += 1
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
        }
        _ = try varint()
        return try varint()
    }

    private static func url(_ show: Int) -> URL { URL(string: "https://feeds.example.org/\(show).xml")! }

    /// Three shows of two episodes each, each applied in a transaction of its own.
    private func threeShows() async throws -> [ShowID] {
        var shows: [ShowID] = []
        for show in 0..<3 {
            shows.append(try await store.apply(feed: SampleFeed.feed(1...2, title: "Show \(show)"),
                                               fetchedFrom: Self.url(show), etag: nil, lastModified: nil).showID)
        }
        return shows
    }

    @Test("a feed's episodes are indexed as one segment a table, not one an episode")
    func oneApplyOneSegment() async throws {
        try await store.apply(feed: SampleFeed.feed(1...6), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        #expect(try segments("search_notes") == 1)
        #expect(try segments("search_heads") == 1)
        #expect(try await store.search(SearchQuery("about"), limit: 100).count == 6)
    }

    @Test("a refresh's batch of feeds adds one segment a table")
    func oneBatchOneSegment() async throws {
        let shows = try await threeShows()
        #expect(try segments("search_notes") == 3)
        let results = await store.applyRefreshed(shows.enumerated().map { show, id in
            RefreshedFeed(feed: SampleFeed.feed(1...4, title: "Show \(show)"), show: id, requestedFrom: Self.url(show),
                          permanentURL: nil, etag: nil, lastModified: nil, layout: nil, fetchedAt: Date())
        })
        #expect(try results.map { try $0.get()?.result.inserted } == [2, 2, 2])
        #expect(try segments("search_notes") == 4)
        #expect(try segments("search_heads") == 4)
        #expect(try await store.search(SearchQuery("about"), limit: 100).count == 12)
    }

    @Test("held rows are written before the index is read or changed in the same transaction")
    func heldRowsComeFirst() async throws {
        let show = try await store.apply(feed: SampleFeed.feed(1...1), fetchedFrom: SampleFeed.url, etag: nil,
                                         lastModified: nil).showID
        let episode = try #require(try await store.episodes(of: show, limit: 1).first).id
        // The same episode's notes indexed twice in one transaction: the
        // second must find the first's rows (held until then) and replace
        // them, not leave them behind with no place pointing at them.
        let writer = SearchIndexWriter(connection: other)
        let showText = SearchIndexWriter.ShowText(title: "A Show", author: nil)
        try other.transaction {
            for notes in ["About marmalade.", "About porridge."] {
                let text = SearchIndexWriter.EpisodeText(title: "Episode 1", subtitle: nil, description: notes,
                                                         contentHTML: nil, chapters: [])
                try writer.indexEpisode(episode, text, show: showText)
            }
        }
        #expect(try await store.search(SearchQuery("porridge"), limit: 100).count == 1)
        #expect(try await store.search(SearchQuery("marmalade"), limit: 100).isEmpty)
        #expect(try other.count("search_notes") == 1)
    }

    @Test("rows held for a batch that fails are dropped with it; its shows applied again are indexed once")
    func failedBatchDropsHeldRows() async throws {
        let shows = try await threeShows()
        // The middle show's new episodes refused, after the first show's
        // rows were held: the batch rolls back and each show is applied alone.
        try other.executeScript("""
            CREATE TRIGGER refuse_show BEFORE INSERT ON episodes WHEN NEW.show_id = \(shows[1].rawValue)
            BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
            """)
        let results = await store.applyRefreshed(shows.enumerated().map { show, id in
            RefreshedFeed(feed: SampleFeed.feed(1...4, title: "Show \(show)"), show: id, requestedFrom: Self.url(show),
                          permanentURL: nil, etag: nil, lastModified: nil, layout: nil, fetchedAt: Date())
        })
        #expect(try results[0].get()?.result.inserted == 2)
        #expect(throws: SQLiteError.self) { try results[1].get() }
        #expect(try results[2].get()?.result.inserted == 2)
        #expect(try await store.search(SearchQuery("about"), limit: 100).count == 10)
        #expect(try other.count("search_notes") == 10)
    }

    @Test("the builder indexes a batch of unindexed episodes as one segment a table")
    func builderBatchOneSegment() async throws {
        try await store.apply(feed: SampleFeed.feed(1...6), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        // The library as a migration leaves it: nothing indexed, every episode waiting.
        try other.executeScript("""
            DELETE FROM search_heads; DELETE FROM search_notes; DELETE FROM search_places;
            INSERT INTO settings (key, value) SELECT 'search.unindexed-through', CAST(max(id) AS TEXT) FROM episodes;
            """)
        let before = (notes: try segments("search_notes"), heads: try segments("search_heads"))
        try await SearchIndexBuilder(store: store, batchSize: 6) { _, _ in nil }.run()
        #expect(try segments("search_notes") == before.notes + 1)
        #expect(try segments("search_heads") == before.heads + 1)
        #expect(try await store.search(SearchQuery("about"), limit: 100).count == 6)
    }
}
