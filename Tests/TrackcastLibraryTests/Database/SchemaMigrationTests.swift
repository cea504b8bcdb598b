import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("Schema and migrations")
struct SchemaMigrationTests {
    /// Every table, index and trigger with its SQL, as `sqlite_schema` records it.
    static func schema(of connection: SQLiteConnection) throws -> [String] {
        try connection.query("""
            SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema
            WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
            """) { $0.string(0) }
    }

    static func freshSchema() async throws -> [String] {
        let directory = try TemporaryDirectory()
        _ = try await LibraryStore(directory: directory.url)
        return try schema(of: directory.openConnection())
    }

    @Test("every older schema version has a frozen snapshot")
    func snapshotsCoverEveryOlderVersion() {
        #expect(SchemaSnapshot.older.map(\.version) == Array(1..<SchemaMigrator().latestVersion))
    }

    @Test("the migration list still builds each older version exactly as it shipped",
          arguments: SchemaSnapshot.older)
    func shippedMigrationsAreUnchanged(_ snapshot: SchemaSnapshot) throws {
        let shipped = try TemporaryDirectory()
        let shippedConnection = try shipped.openConnection()
        try shippedConnection.executeScript(snapshot.schema)

        let rebuilt = try TemporaryDirectory()
        let rebuiltConnection = try rebuilt.openConnection()
        try SchemaMigrator().migrate(rebuiltConnection, upTo: snapshot.version)

        #expect(try Self.schema(of: rebuiltConnection) == Self.schema(of: shippedConnection))
        #expect(try SchemaMigrator.version(of: rebuiltConnection) == snapshot.version)
    }

    @Test("an older library migrates to the newest schema and keeps its data", arguments: SchemaSnapshot.older)
    func olderLibraryMigrates(_ snapshot: SchemaSnapshot) async throws {
        let directory = try TemporaryDirectory()
        do {
            let old = try directory.openConnection()
            try old.executeScript(snapshot.schema)
            try old.executeScript(snapshot.sampleData)
            try old.executeScript("PRAGMA user_version = \(snapshot.version)")
        }

        let store = try await LibraryStore(directory: directory.url)

        let connection = try directory.openConnection()
        #expect(try SchemaMigrator.version(of: connection) == SchemaMigrator().latestVersion)
        #expect(try await Self.schema(of: connection) == Self.freshSchema())
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") { $0.string(0) } == nil)

        // What every snapshot's sample data holds, read through today's API.
        let show = try #require(try await store.show(feedURL: SampleFeed.url))
        #expect(show.id == ShowID(rawValue: 7))
        #expect(show.title == "Old Show")
        #expect(show.refresh.etag == "\"v1\"")
        #expect(show.refresh.feedLayout == nil, "the first refresh after migrating parses the feed")
        #expect(show.unplayedCount == 1 && show.newCount == 1)
        #expect(show.settings == ShowSettings())
        let episodes = try await store.episodes(of: show.id, limit: 10)
        #expect(episodes.map(\.title) == ["Second", "First"])
        #expect(episodes[0].mediaURL == URL(string: "https://media.example.org/b.mp3"))
        #expect(episodes[0].resumePosition == ResumePosition(
            position: 42.5, duration: 1800, updated: Date(timeIntervalSince1970: 1_700_090_000.25)))
        #expect(episodes[1].downloadState == .complete)
        #expect(episodes[1].duration == 1200.5)
        #expect(try await store.queue().map(\.id.rawValue) == [71, 70])
        #expect(try await store.position(for: .uri(URL(string: "file:///home/me/talk.ogg")!))?.position == 12)
        #expect(try await store.appSetting("volume") == "0.8")
        let detail = try #require(try await store.episode(EpisodeID(rawValue: 71)))
        #expect(detail.chapters.isEmpty && detail.chaptersURL == nil)
    }

    @Test("an empty file is a new library")
    func emptyFileIsANewLibrary() async throws {
        let directory = try TemporaryDirectory()
        try Data().write(to: directory.databaseURL)
        let store = try await LibraryStore(directory: directory.url)
        #expect(try await store.shows().isEmpty)
        #expect(try await Self.schema(of: directory.openConnection()) == Self.freshSchema())
    }

    @Test("a migration that fails leaves the database at the version before it")
    func failedMigrationRollsBack() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        let broken = SchemaMigration(version: 2, sql: """
            CREATE TABLE half_done (x INTEGER) STRICT;
            ALTER TABLE shows ADD COLUMN half_done_too TEXT;
            INSERT INTO no_such_table VALUES (1);
            """)
        let migrator = SchemaMigrator(migrations: [LibrarySchema.version1, broken])
        #expect(throws: SQLiteError.self) { try migrator.migrate(connection) }
        #expect(try SchemaMigrator.version(of: connection) == 1)
        let tables = try connection.query("SELECT name FROM sqlite_schema WHERE name = 'half_done'") { $0.string(0) }
        #expect(tables.isEmpty)
        let columns = try connection.query("SELECT name FROM pragma_table_info('shows')") { $0.string(0) }
        #expect(!columns.contains("half_done_too"))
    }

    @Test("a library from a newer Trackcast is refused and left untouched")
    func newerSchemaIsRefused() async throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try await LibraryStore(directory: directory.url)
            let connection = try directory.openConnection()
            try connection.executeScript("PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE);")
        }
        let before = try Data(contentsOf: directory.databaseURL)
        await #expect(throws: LibraryStoreError.schemaTooNew(found: 99, supported: SchemaMigrator().latestVersion)) {
            _ = try await LibraryStore(directory: directory.url)
        }
        #expect(try Data(contentsOf: directory.databaseURL) == before)
    }

    @Test("every table is STRICT (views cannot be)")
    func tablesAreStrict() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        try SchemaMigrator().migrate(connection)
        // FTS5's table and its shadow tables are SQLite's own, and cannot be STRICT.
        let tables = try connection.query("""
            SELECT name, strict FROM pragma_table_list
            WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'
            """) { ($0.string(0), $0.bool(1)) }
        #expect(Set(tables.map(\.0)) == ["shows", "episodes", "enclosures", "chapters", "transcripts", "persons",
                                          "funding", "downloads", "queue", "resume_positions", "settings",
                                          "sync_account", "sync_pending_subscriptions", "sync_pending_actions",
                                          "search_places", "auto_downloads_waiting"])
        #expect(tables.filter { !$0.1 }.map(\.0) == [])
    }
}
