import Foundation
import Testing
@testable import TrackcastLibrary

/// The UI's queries must stay fast at 100,000 episodes: each must find its
/// episodes through an index, never by reading the whole episodes table, and
/// the lists must come out of the index already in order (no sort of every
/// matching row before the LIMIT).
@Suite("Query plans")
struct QueryPlanTests {
    struct PlannedQuery: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        let bindings: [SQLiteValue]
        /// An index the plan must use.
        let index: String?
        /// Whether sorting the matching rows is acceptable: only for the shows
        /// list, where the rows sorted are the shows themselves.
        var sortAllowed = false

        var testDescription: String { name }
    }

    static let showID = SQLiteValue.integer(3)
    static let page: [SQLiteValue] = [.integer(50), .integer(0)]

    static let queries: [PlannedQuery] = [
        // Reads the shows table only: the counts are columns kept by triggers.
        PlannedQuery(name: "shows with counts", sql: ShowRowReader.list, bindings: [], index: nil, sortAllowed: true),
        PlannedQuery(name: "new episodes across shows", sql: EpisodeSummaryQuery.newEpisodes, bindings: page,
                     index: "episodes_new_by_date"),
        PlannedQuery(name: "in-progress episodes", sql: EpisodeSummaryQuery.inProgress, bindings: page,
                     index: "resume_positions_by_update"),
        PlannedQuery(name: "downloaded episodes", sql: EpisodeSummaryQuery.downloaded, bindings: page,
                     index: "downloads_by_state"),
        PlannedQuery(name: "the queue", sql: EpisodeSummaryQuery.queue, bindings: [], index: "queue_by_position"),
    ] + EpisodeFilter.allCases.flatMap { filter in
        EpisodeSort.allCases.map { sort in
            PlannedQuery(name: "a show's episodes, \(filter), \(sort)",
                         sql: EpisodeSummaryQuery.showEpisodes(filter: filter, sort: sort),
                         bindings: [showID] + page,
                         index: "episodes_by_show_date")
        }
    }

    static func plan(of query: PlannedQuery, in connection: SQLiteConnection) throws -> [String] {
        try connection.query("EXPLAIN QUERY PLAN \(query.sql)", query.bindings) { $0.string(3) }
    }

    @Test("uses an index and never scans all episodes", arguments: queries)
    func usesIndex(_ query: PlannedQuery) async throws {
        let directory = try TemporaryDirectory()
        let store = try await LibraryStore(directory: directory.url)
        try await LibraryQueryBenchmark.fill(store, shows: 10, episodesPerShow: 40)
        let plan = try Self.plan(of: query, in: directory.openConnection())

        if let index = query.index {
            #expect(plan.contains { $0.contains(index) }, "\(plan)")
        } else {
            #expect(!plan.contains { $0.contains("episodes") || $0.contains(" e ") }, "\(plan)")
        }
        // SQLite says "SCAN <table or alias>" with no "USING … INDEX" when it reads a whole table.
        let fullScans = plan.filter { $0.hasPrefix("SCAN") && !$0.contains("INDEX") && !$0.contains("PRIMARY KEY") }
        #expect(fullScans.filter { !$0.hasPrefix("SCAN s") && !$0.hasPrefix("SCAN q") } == [], "\(plan)")
        if !query.sortAllowed {
            #expect(!plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") }, "\(plan)")
        }
    }
}
