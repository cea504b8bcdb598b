import Foundation
import Synchronization
import Testing
@testable import TrackcastLibrary

@Suite("Search index of an existing library")
struct SearchIndexMigrationTests {
    /// A library as version 5 left it, with a chapter and a listed transcript.
    static func version5Library() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let old = try directory.openConnection()
        let snapshot = SchemaSnapshot.version5
        try old.executeScript(snapshot.schema)
        try old.executeScript(snapshot.sampleData)
        try old.executeScript("""
            UPDATE episodes SET description = '<p>Notes on <i>Zürich</i></p>' WHERE id = 70;
            INSERT INTO chapters (episode_id, position, start, title) VALUES (71, 0, 65, 'Listener mail');
            INSERT INTO transcripts (episode_id, position, url, type)
                VALUES (71, 0, 'https://media.example.org/b.vtt', 'text/vtt');
            PRAGMA user_version = 5;
            """)
        return directory
    }

    @Test("the migration leaves a backlog that the builder indexes, cached transcripts included")
    func builderIndexesBacklog() async throws {
        let directory = try Self.version5Library()
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.searchIndexBacklog() == SearchIndexBacklog(remaining: 2, total: 2))
        #expect(try await store.search(SearchQuery("zurich")).isEmpty)

        let asked = Asked()
        let builder = SearchIndexBuilder(store: store, batchSize: 1) { episode, transcripts in
            asked.add(episode, transcripts.map(\.url.absoluteString))
            return Transcript(cues: [TranscriptCue(start: 30, end: 31, text: "spoken words")])
        }
        let reports = Asked()
        try await builder.run { reports.add(EpisodeID(rawValue: Int64($0.remaining)), []) }

        #expect(reports.episodes.map(\.rawValue) == [1, 0], "one report per batch of one episode")
        #expect(asked.episodes == [EpisodeID(rawValue: 71)])
        #expect(asked.urls == [["https://media.example.org/b.vtt"]])
        #expect(try await store.searchIndexBacklog() == SearchIndexBacklog(remaining: 0, total: 2))
        #expect(try await store.search(SearchQuery("zurich")).map(\.episode.rawValue) == [70])
        #expect(try await store.search(SearchQuery("mail")).map(\.place) == [.chapter(start: 65)])
        #expect(try await store.search(SearchQuery("spoken")).map(\.place) == [.transcript(start: 30)])
        #expect(try await store.search(SearchQuery("old show")).count == 2)
        try await builder.run()
    }

    @Test("a refresh before the builder gets there does not index an episode twice")
    func refreshMeetsBuilder() async throws {
        let directory = try Self.version5Library()
        let store = try await LibraryStore(directory: directory.url)
        try await store.apply(feed: Feed(title: "Old Show", episodes: [
            FeedEpisode(guid: "b", title: "Second, renamed"),
        ]), fetchedFrom: SampleFeed.url, etag: nil, lastModified: nil)
        try await SearchIndexBuilder(store: store) { _, _ in nil }.run()
        #expect(try await store.search(SearchQuery("renamed")).count == 1)
        #expect(try directory.openConnection().count("search_places") == 3, "two titles and one set of notes")
    }

    @Test("a library indexed in one table (version 6) drops it and is indexed again, by kind")
    func version6Reindexed() async throws {
        let directory = try TemporaryDirectory()
        do {
            let old = try directory.openConnection()
            try old.executeScript(SchemaSnapshot.version6.schema)
            try old.executeScript(SchemaSnapshot.version6.sampleData)
            try old.executeScript("PRAGMA user_version = 6")
        }
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.searchIndexBacklog() == SearchIndexBacklog(remaining: 2, total: 2))
        #expect(try await store.search(SearchQuery("indexed")).isEmpty, "the old table's rows are gone")
        let connection = try directory.openConnection()
        #expect(try connection.count("search_places") == 0)
        #expect(try connection.queryFirst("SELECT 1 FROM sqlite_schema WHERE name = 'search_text'") { _ in true } == nil)
        for table in ["search_heads", "search_notes", "search_cues"] {
            #expect(try connection.queryFirst("SELECT v FROM \(table)_config WHERE k = 'automerge'") { $0.int(0) } == 8,
                    "a refresh's transaction per show merges less often (\(table))")
        }

        try await SearchIndexBuilder(store: store) { _, _ in nil }.run()
        #expect(try await store.search(SearchQuery("second")).map(\.episode.rawValue) == [71])
        #expect(try connection.count("search_heads") == 2)
    }

    @Test("a new library has no backlog")
    func newLibrary() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.searchIndexBacklog().isDone)
    }
}

/// What a builder's callbacks saw, from whichever thread they ran on.
private final class Asked: Sendable {
    private let seen = Mutex<[(EpisodeID, [String])]>([])

    func add(_ episode: EpisodeID, _ urls: [String]) {
        seen.withLock { $0.append((episode, urls)) }
    }

    var episodes: [EpisodeID] { seen.withLock { $0.map(\.0) } }
    var urls: [[String]] { seen.withLock { $0.map(\.1) } }
}
