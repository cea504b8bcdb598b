import CSQLite
import Foundation

/// The floor for `LibraryQueryBenchmark.measure`: the same SQL with the same
/// parameters, run as a bare loop over a prepared statement on a connection
/// of its own (prepare once; per run bind, step through every row touching
/// each column, reset). No actor hop, no row decoding: what SQLite itself
/// costs, which the store's figures can be held against.
public enum LibraryQueryFloor {
    /// Timings named as `LibraryQueryBenchmark.measure` names them, for the
    /// queries that are one statement (all but the episode page's).
    public static func measure(_ store: LibraryStore, runs: Int) async throws -> [QueryTiming] {
        let shows = try await store.shows()
        guard let busiest = shows.max(by: { $0.unplayedCount < $1.unplayedCount }) else { return [] }
        let show = busiest.id.rawValue
        let queries: [(String, String, [Int64])] = [
            ("shows with unplayed and new counts", ShowRowReader.list, []),
            ("a show's episodes, newest first, first page",
             EpisodeSummaryQuery.showEpisodes(filter: .all, sort: .newestFirst), [show, 50, 0]),
            ("a show's episodes, oldest first, fourth page",
             EpisodeSummaryQuery.showEpisodes(filter: .all, sort: .oldestFirst), [show, 50, 150]),
            ("a show's unplayed episodes", EpisodeSummaryQuery.showEpisodes(filter: .unplayed, sort: .newestFirst),
             [show, 50, 0]),
            ("new episodes across shows", EpisodeSummaryQuery.newEpisodes, [50, 0]),
            ("in-progress episodes", EpisodeSummaryQuery.inProgress, [50, 0]),
            ("downloaded episodes", EpisodeSummaryQuery.downloaded, [50, 0]),
            ("the queue", EpisodeSummaryQuery.queue, []),
        ]
        let path = store.databaseURL.path
        return try await Task.detached {
            var database: OpaquePointer?
            guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                  let database else {
                throw SQLiteError(code: SQLITE_CANTOPEN, connection: nil)
            }
            defer { sqlite3_close_v2(database) }
            return try queries.map { name, sql, parameters in
                try time(name, sql: sql, parameters: parameters, database: database, runs: runs)
            }
        }.value
    }

    private static func time(_ name: String, sql: String, parameters: [Int64], database: OpaquePointer,
                             runs: Int) throws -> QueryTiming {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteError(code: SQLITE_ERROR, connection: database)
        }
        defer { sqlite3_finalize(statement) }
        let columns = sqlite3_column_count(statement)
        var checksum = 0
        func run() {
            for (index, value) in parameters.enumerated() { sqlite3_bind_int64(statement, Int32(index + 1), value) }
            while sqlite3_step(statement) == SQLITE_ROW {
                for column in 0..<columns {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: checksum &+= Int(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: checksum &+= Int(sqlite3_column_double(statement, column))
                    case SQLITE_TEXT:
                        _ = sqlite3_column_text(statement, column)
                        checksum &+= Int(sqlite3_column_bytes(statement, column))
                    default: break
                    }
                }
            }
            sqlite3_reset(statement)
        }
        run()
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<runs { samples.append(clock.measure(run)) }
        // The checksum keeps the optimiser from dropping the column reads.
        if checksum == .min { print(checksum) }
        return QueryTiming(name: name, samples: samples)
    }
}
