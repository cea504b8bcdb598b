import CSQLite
import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    @Test("opening creates the file, in WAL mode with foreign keys on")
    func opensInWALMode() throws {
        let directory = try TemporaryDirectory()
        #expect(!FileManager.default.fileExists(atPath: directory.databaseURL.path))
        let connection = try directory.openConnection()
        #expect(FileManager.default.fileExists(atPath: directory.databaseURL.path))
        #expect(try connection.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) } == 1)
        // NORMAL is 1.
        #expect(try connection.queryFirst("PRAGMA synchronous") { $0.int(0) } == 1)
        #expect(try connection.queryFirst("PRAGMA busy_timeout") { $0.int(0) } == 5000)
    }

    @Test("values bind and read back exactly, text is never confused with NULL")
    func bindingRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        try connection.executeScript("CREATE TABLE t (i INTEGER, r REAL, s TEXT) STRICT")
        let texts = ["", "plain", "ünïcødé 🎧", "nul\u{0}inside", "'; DROP TABLE t; --"]
        for text in texts {
            try connection.execute("INSERT INTO t (i, r, s) VALUES (?, ?, ?)", [Int64.max, 0.1, text])
        }
        try connection.execute("INSERT INTO t (i, r, s) VALUES (?, ?, ?)", [Int?.none, Double?.none, String?.none])
        let rows = try connection.query("SELECT i, r, s FROM t ORDER BY rowid") {
            ($0.optionalInt64(0), $0.optionalDouble(1), $0.optionalString(2))
        }
        #expect(rows.map(\.2) == texts + [nil])
        #expect(rows.dropLast().allSatisfy { $0.0 == Int64.max && $0.1 == 0.1 })
        #expect(rows.last!.0 == nil && rows.last!.1 == nil)
    }

    @Test("a wrong number of values is an error, not a silent NULL")
    func bindingCountIsChecked() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT ?, ?", [1]) }
    }

    @Test("SQL errors carry SQLite's code and message")
    func errorsCarryCodeAndMessage() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        try connection.executeScript("CREATE TABLE t (k TEXT UNIQUE) STRICT")
        try connection.execute("INSERT INTO t (k) VALUES (?)", ["a"])
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO t (k) VALUES (?)", ["a"])
        }
        #expect(error.code == SQLITE_CONSTRAINT)
        // SQLITE_CONSTRAINT_UNIQUE, a macro Swift cannot import.
        #expect(error.extendedCode == 2067)
        #expect(error.message.contains("UNIQUE"))
        let syntax = try #require(throws: SQLiteError.self) { try connection.execute("SELEKT 1") }
        #expect(syntax.code == SQLITE_ERROR)
        #expect(syntax.message.contains("syntax error"))
    }

    /// Ten million rows of a recursive CTE: a statement that runs long.
    static let longCount = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000) SELECT count(*) FROM n
        """

    @Test("cancelling the task stops a cancellable statement part-way, and only inside the cancellable scope")
    func cancellableStatement() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.databaseURL
        let task = Task { () throws -> Int? in
            let connection = try SQLiteConnection(path: url.path)
            do {
                _ = try connection.cancellable {
                    // Cancelled once the statement is already running, as a next keystroke would.
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try connection.queryFirst(Self.longCount) { $0.int(0) }
                }
                Issue.record("the statement ran to its end")
            } catch is CancellationError {}
            // Outside the scope, a cancelled task's statement runs as any other.
            return try connection.queryFirst("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n") { $0.int(0) }
        }
        #expect(try await task.value == 100_000)
    }

    @Test("a thrown error rolls the whole transaction back")
    func transactionRollsBack() throws {
        struct Abort: Error {}
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        try connection.executeScript("CREATE TABLE t (k INTEGER) STRICT")
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t (k) VALUES (?)", [1])
                try connection.execute("INSERT INTO t (k) VALUES (?)", [2])
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.count("t") == 0)
        try connection.transaction { try connection.execute("INSERT INTO t (k) VALUES (?)", [3]) }
        #expect(try connection.count("t") == 1)
    }

    @Test("a statement used inside a read of the same statement gets its own copy")
    func nestedUseOfTheSameStatement() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        try connection.executeScript("CREATE TABLE t (k INTEGER) STRICT; INSERT INTO t VALUES (1), (2), (3);")
        let sql = "SELECT k FROM t WHERE k >= ? ORDER BY k"
        let pairs = try connection.query(sql, [1]) { row in
            let outer = row.int(0)
            let inner = (try? connection.query(sql, [outer]) { $0.int(0) }) ?? []
            return (outer, inner)
        }
        #expect(pairs.map(\.0) == [1, 2, 3])
        #expect(pairs.map(\.1) == [[1, 2, 3], [2, 3], [3]])
    }

    @Test("the schema is never trusted and cannot be written, even with writable_schema: SQLite's defensive mode is on")
    func defensive() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.openConnection()
        #expect(try connection.queryFirst("PRAGMA trusted_schema") { $0.int(0) } == 0)
        try connection.executeScript("CREATE TABLE kept (x)")
        try connection.executeScript("PRAGMA writable_schema = ON")
        #expect(throws: SQLiteError.self) {
            try connection.execute("UPDATE sqlite_schema SET sql = 'CREATE TABLE kept (y)' WHERE name = 'kept'")
        }
    }

    @Test("a file of garbage is reported as not a database and left untouched")
    func garbageFile() throws {
        let directory = try TemporaryDirectory()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: directory.databaseURL)
        let error = try #require(throws: SQLiteError.self) { _ = try directory.openConnection() }
        #expect(error.code == SQLITE_NOTADB)
        #expect(error.isCorruption)
        #expect(try Data(contentsOf: directory.databaseURL) == garbage)
    }

    @Test("a library in a file of garbage fails to open and the file is kept")
    func garbageLibrary() async throws {
        let directory = try TemporaryDirectory()
        let garbage = Data("this is my shopping list, not a database\n".utf8)
        try garbage.write(to: directory.databaseURL)
        await #expect(throws: SQLiteError.self) { _ = try await LibraryStore(directory: directory.url) }
        #expect(try Data(contentsOf: directory.databaseURL) == garbage)
        #expect(!FileManager.default.fileExists(atPath: directory.databaseURL.path + "-wal"))
    }

    @Test("a truncated library is reported as damaged, not crashed on")
    func truncatedLibrary() async throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try await LibraryStore(directory: directory.url)
            try await LibraryQueryBenchmark.fill(store, shows: 20, episodesPerShow: 50)
        }
        // Fold the WAL into the main file, then cut the file in half.
        try directory.openConnection().executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        let whole = try Data(contentsOf: directory.databaseURL)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: directory.databaseURL)

        let error = try await #require(throws: SQLiteError.self) {
            let store = try await LibraryStore(directory: directory.url)
            for show in try await store.shows() {
                _ = try await store.episodes(of: show.id, limit: 1000)
            }
        }
        #expect(error.isCorruption)
        #expect(try Data(contentsOf: directory.databaseURL) == truncated)
    }
}
