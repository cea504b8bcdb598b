import Foundation

extension LibraryStore {
    /// The weight of each column of `search_heads`, in its order (title,
    /// show, chapter): words in an episode's title count most, then chapter
    /// titles, then the show's name and author.
    static let headWeights = "10.0, 4.0, 5.0"

    /// How many places of a kind a word may be in for BM25 to rank that
    /// kind's matches. BM25 scores every match before the best is known,
    /// and first counts every place that holds each word (its weight), so
    /// a word in most notes took half a second on a big library, and even
    /// with a rare word beside it, counting the common one's took tens of
    /// milliseconds. A query with a word past this many lists that kind's
    /// matches newest indexed first instead: a word that common says little
    /// about which is best.
    static let rankedWordLimit = 2_000

    /// The places whose text holds every word of `query`, at most `limit`,
    /// best first: titles and chapters, then notes, then transcript cues
    /// (each kind its own FTS5 table, so a title is found without walking
    /// the postings of every cue). Titles, chapters and notes are ranked by
    /// BM25 when no word of the query is in more than `rankedWordLimit` of
    /// them; cues, short and alike, are listed newest indexed first, in
    /// their order.
    /// An empty query finds nothing. Whatever the text holds, it is
    /// searched as words: it never fails as FTS5 syntax (`SearchQuery`).
    ///
    /// Cancelling the calling task stops the query where it is, with
    /// `CancellationError`: the window cancels a search when the next
    /// keystroke starts another, which would otherwise wait for it.
    public func search(_ query: SearchQuery, limit: Int = 100) throws -> [SearchMatch] {
        guard !query.isEmpty else { return [] }
        return try connection.cancellable {
            var matches: [SearchMatch] = []
            for group in SearchGroup.allCases where matches.count < limit {
                try Task.checkCancellation()
                matches += try search(query, in: group, limit: limit - matches.count)
            }
            return matches
        }
    }

    /// The FTS5 tables, searched in this order.
    private enum SearchGroup: CaseIterable {
        case heads, notes, cues

        var table: String {
            switch self {
            case .heads: "search_heads"
            case .notes: "search_notes"
            case .cues: "search_cues"
            }
        }

        var rankFunction: String {
            switch self {
            case .heads: "bm25(\(LibraryStore.headWeights))"
            case .notes, .cues: "bm25()"
            }
        }
    }

    private func search(_ query: SearchQuery, in group: SearchGroup, limit: Int) throws -> [SearchMatch] {
        let table = group.table
        let expression = query.expression
        let ranked = try group != .cues && !query.phrases.contains { try isCommon($0, in: table) }
        // FTS5 sorts by rank itself when asked for ORDER BY rank alone, and
        // computes snippet() only for the rows it returns: ordering by
        // bm25() in the outer query would make a snippet of every match.
        let hits = ranked ? """
            SELECT rowid AS id, rank AS ord, snippet(\(table), -1, char(2), char(3), '…', 12) AS snippet
            FROM \(table) WHERE \(table) MATCH ? AND rank MATCH '\(group.rankFunction)'
            ORDER BY rank LIMIT ?
            """ : """
            SELECT rowid AS id, -rowid AS ord, snippet(\(table), -1, char(2), char(3), '…', 12) AS snippet
            FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid DESC LIMIT ?
            """
        // A transcript's cues come in their order in the episode, which listing newest first would reverse.
        let order = group == .cues ? "p.episode_id DESC, p.id" : "hits.ord"
        return try connection.query("""
            WITH hits AS (\(hits))
            SELECT p.episode_id, e.show_id, s.title, e.title, p.kind, p.start, hits.snippet
            FROM hits
            JOIN search_places p ON p.id = hits.id
            JOIN episodes e ON e.id = p.episode_id
            JOIN shows s ON s.id = e.show_id
            ORDER BY \(order)
            """, [expression, limit]) { row -> SearchMatch? in
            guard let place = SearchPlace(kind: row.int(4), start: row.optionalDouble(5)) else { return nil }
            return SearchMatch(episode: EpisodeID(rawValue: row.int64(0)), show: ShowID(rawValue: row.int64(1)),
                               showTitle: row.optionalString(2), episodeTitle: row.optionalString(3),
                               place: place, snippet: SearchSnippet(marked: row.string(6)))
        }.compactMap { $0 }
    }

    /// Whether `phrase` is in more than `rankedWordLimit` rows of `table`:
    /// cheap, as FTS5 walks a word's places lazily and stops at the offset.
    private func isCommon(_ phrase: String, in table: String) throws -> Bool {
        try connection.queryFirst("SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT 1 OFFSET ?",
                                  [phrase, Self.rankedWordLimit]) { _ in true } != nil
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

    /// Puts the chapters learned of an episode since its refresh (from a
    /// chapters file or the media) into the search index, in place of those
    /// learned before; the feed's own are indexed by the refresh. Returns
    /// whether the index changed. An episode that is gone is left alone.
    @discardableResult
    public func indexChapters(_ chapters: [Chapter], of episode: EpisodeID) throws -> Bool {
        let titled = chapters.compactMap { chapter in
            chapter.title.map { (start: chapter.start, title: $0) }
        }
        return try connection.transaction {
            guard try connection.queryFirst("SELECT 1 FROM episodes WHERE id = ?", [episode], { _ in true }) != nil
            else { return false }
            return try SearchIndexWriter(connection: connection).indexLearnedChapters(episode, titled)
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
