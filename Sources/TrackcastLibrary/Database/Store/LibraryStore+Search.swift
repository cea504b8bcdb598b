import Foundation

extension LibraryStore {
    /// The index's weight for each column of `search_text`, in its order
    /// (title, show, chapter, notes, transcript): words in a title count
    /// most, then chapter titles and the show's name, then notes, then
    /// what was said.
    static let searchWeights = "10.0, 4.0, 5.0, 2.0, 1.0"

    /// The places whose text holds every word of `query`, best first
    /// (BM25 over the weights above), at most `limit`. An empty query finds
    /// nothing. Whatever the text holds, it is searched as words: it never
    /// fails as FTS5 syntax (`SearchQuery`).
    public func search(_ query: SearchQuery, limit: Int = 200) throws -> [SearchMatch] {
        guard !query.isEmpty else { return [] }
        // FTS5 sorts by rank itself when asked for ORDER BY rank alone, and
        // computes snippet() only for the rows it returns: ordering by
        // bm25() in the outer query would make a snippet of every match.
        return try connection.query("""
            WITH hits AS (
                SELECT rowid AS id, rank, snippet(search_text, -1, char(2), char(3), '…', 12) AS snippet
                FROM search_text
                WHERE search_text MATCH ? AND rank MATCH 'bm25(\(Self.searchWeights))'
                ORDER BY rank LIMIT ?)
            SELECT p.episode_id, e.show_id, s.title, e.title, p.kind, p.start, hits.snippet
            FROM hits
            JOIN search_places p ON p.id = hits.id
            JOIN episodes e ON e.id = p.episode_id
            JOIN shows s ON s.id = e.show_id
            ORDER BY hits.rank
            """, [query.expression, limit]) { row -> SearchMatch? in
            guard let place = SearchPlace(kind: row.int(4), start: row.optionalDouble(5)) else { return nil }
            return SearchMatch(episode: EpisodeID(rawValue: row.int64(0)), show: ShowID(rawValue: row.int64(1)),
                               showTitle: row.optionalString(2), episodeTitle: row.optionalString(3),
                               place: place, snippet: SearchSnippet(marked: row.string(6)))
        }.compactMap { $0 }
    }

    /// Puts an episode's transcript into the search index, in place of any
    /// it had: called when a transcript is fetched or read from the cache.
    /// An episode that is gone (unsubscribed meanwhile) is left alone.
    public func indexTranscript(_ transcript: Transcript, of episode: EpisodeID) throws {
        try connection.transaction {
            guard try connection.queryFirst("SELECT 1 FROM episodes WHERE id = ?", [episode], { _ in true }) != nil
            else { return }
            try SearchIndexWriter(connection: connection).indexTranscript(episode, transcript)
        }
    }

    /// Whether an episode's transcript is in the index.
    public func hasIndexedTranscript(_ episode: EpisodeID) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM search_places WHERE episode_id = ? AND kind = ? LIMIT 1",
                                  [episode, SearchPlace.Kind.transcript.rawValue]) { _ in true } ?? false
    }
}

extension LibraryStore {
    /// The setting that holds the highest episode id the index has yet to
    /// take in; absent once the library is all indexed (see `LibrarySchema.version6`).
    static let unindexedThroughSetting = "search.unindexed-through"

    /// How much of the library the search index has yet to take in.
    public func searchIndexBacklog() throws -> SearchIndexBacklog {
        let total = try connection.queryFirst("SELECT count(*) FROM episodes") { $0.int(0) } ?? 0
        guard let through = try unindexedThrough() else { return SearchIndexBacklog(remaining: 0, total: total) }
        let remaining = try connection.queryFirst("SELECT count(*) FROM episodes WHERE id <= ?", [through]) { $0.int(0) } ?? 0
        return SearchIndexBacklog(remaining: remaining, total: total)
    }

    /// Indexes the newest `count` episodes not yet indexed, in one
    /// transaction, and returns those that list transcripts, for the
    /// caller to index what it has of them cached.
    func indexBacklogBatch(count: Int) throws -> [(EpisodeID, [FeedTranscript])] {
        try connection.transaction {
            guard let through = try unindexedThrough() else { return [] }
            let index = SearchIndexWriter(connection: connection)
            let episodes = try connection.query("""
                SELECT e.id, e.title, e.subtitle, e.description, e.content_html, s.title, s.author
                FROM episodes e JOIN shows s ON s.id = e.show_id
                WHERE e.id <= ? ORDER BY e.id DESC LIMIT ?
                """, [through, count]) { row in
                (EpisodeID(rawValue: row.int64(0)),
                 SearchIndexWriter.EpisodeText(title: row.optionalString(1), subtitle: row.optionalString(2),
                                               description: row.optionalString(3), contentHTML: row.optionalString(4),
                                               chapters: []),
                 SearchIndexWriter.ShowText(title: row.optionalString(5), author: row.optionalString(6)))
            }
            var withTranscripts: [(EpisodeID, [FeedTranscript])] = []
            for (id, text, show) in episodes {
                var text = text
                text.chapters = try connection.query("SELECT start, title FROM chapters WHERE episode_id = ? ORDER BY position",
                                                     [id]) { ($0.double(0), $0.string(1)) }
                try index.indexEpisode(id, text, show: show)
                let transcripts = try connection.query("""
                    SELECT url, type, language, rel FROM transcripts WHERE episode_id = ? ORDER BY position
                    """, [id]) { row in
                    row.url(0).map { FeedTranscript(url: $0, type: row.optionalString(1),
                                                    language: row.optionalString(2), rel: row.optionalString(3)) }
                }.compactMap { $0 }
                if !transcripts.isEmpty { withTranscripts.append((id, transcripts)) }
            }
            let next = episodes.count < count ? nil : episodes.last.map { String($0.0.rawValue - 1) }
            try setAppSetting(Self.unindexedThroughSetting, to: next)
            return withTranscripts
        }
    }

    private func unindexedThrough() throws -> Int64? {
        try appSetting(Self.unindexedThroughSetting).flatMap(Int64.init)
    }
}
