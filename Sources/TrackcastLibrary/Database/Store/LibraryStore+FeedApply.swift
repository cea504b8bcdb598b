import Foundation

extension LibraryStore {
    /// Brings the library up to date with a feed just fetched from `url`:
    /// subscribes the show if the URL is new, overwrites its channel fields,
    /// records the refresh, and inserts or updates episodes by identity
    /// (`FeedEpisodeIdentity`). All of it commits in one transaction, so a
    /// crash or error never leaves half a feed behind.
    ///
    /// Only new and changed episodes are written. Episodes that left the feed
    /// stay (feeds drop old items; the user's history should not). Episodes
    /// seen on the apply that subscribes a show are not marked new: "new"
    /// means arrived since subscribing. `layout` is the fetched document's
    /// `FeedDocumentLayout`, kept so the next refresh can skip the same bytes.
    /// A feed parsed in part (the items it gained) counts only those.
    /// The search index follows in the same transaction (`SearchIndexWriter`).
    @discardableResult
    public func apply(feed: Feed, fetchedFrom url: URL, etag: String?, lastModified: String?,
                      layout: FeedDocumentLayout? = nil,
                      at now: Date = Date()) throws -> FeedApplyResult {
        try connection.transaction {
            let writer = FeedRowWriter(connection: connection)
            let stored = try connection.queryFirst("SELECT id, last_refreshed IS NOT NULL FROM shows WHERE feed_url = ?",
                                                   [url]) { (id: ShowID(rawValue: $0.int64(0)), wasApplied: $0.bool(1)) }
            let existingShow = stored?.id
            let showID = try existingShow ?? writer.insertShow(feedURL: url, subscribed: now)
            let index = SearchIndexWriter(connection: connection)
            let showText = SearchIndexWriter.ShowText(title: feed.title, author: feed.author)
            let indexedShowText = try connection.queryFirst("SELECT title, author FROM shows WHERE id = ?", [showID]) {
                SearchIndexWriter.ShowText(title: $0.optionalString(0), author: $0.optionalString(1)).text
            }
            try writer.updateShow(showID, from: feed, etag: etag, lastModified: lastModified, layout: layout,
                                  refreshed: now)
            if existingShow != nil, indexedShowText != showText.text {
                try index.reindexShowText(showID, showText)
            }

            // The first item with an identity wins, as feeds list their items.
            var seen: Set<String> = []
            let unique = feed.episodes.filter { seen.insert($0.identity.key).inserted }
            let known = try knownEpisodes(of: showID, among: unique)
            var inserted = 0, updated = 0, unchanged = 0
            var withTranscripts: [EpisodeTranscripts] = []
            var arrivals: [EpisodeID] = []
            // Bottom of the feed first, so that row ids (the tie-break of equal
            // or missing dates) follow the order the feed presents.
            for episode in unique.reversed() {
                let identity = episode.identity.key
                let contentHash = EpisodeContentHash.of(episode)
                if let stored = known[identity] {
                    if stored.contentHash == contentHash {
                        unchanged += 1
                    } else {
                        try writer.updateEpisode(stored.id, to: episode, contentHash: contentHash)
                        try index.indexEpisode(stored.id, SearchIndexWriter.EpisodeText(episode), show: showText)
                        if !episode.transcripts.isEmpty {
                            withTranscripts.append(EpisodeTranscripts(episode: stored.id, transcripts: episode.transcripts))
                        }
                        updated += 1
                    }
                } else {
                    let id = try writer.insertEpisode(episode, identity: identity, contentHash: contentHash, show: showID,
                                                      isNew: existingShow != nil, firstSeen: now)
                    try index.indexEpisode(id, SearchIndexWriter.EpisodeText(episode), show: showText, isNew: true)
                    if !episode.transcripts.isEmpty {
                        withTranscripts.append(EpisodeTranscripts(episode: id, transcripts: episode.transcripts))
                    }
                    if stored?.wasApplied == true { arrivals.append(id) }
                    inserted += 1
                }
            }
            if !arrivals.isEmpty {
                try connection.execute("""
                    INSERT INTO auto_downloads_waiting (episode_id) SELECT value FROM json_each(?)
                    WHERE EXISTS (SELECT 1 FROM shows WHERE id = ? AND auto_download = 1)
                    """, [SQLiteValue.jsonArray(arrivals.lazy.map(\.rawValue)), showID])
            }
            return FeedApplyResult(showID: showID, isNewShow: existingShow == nil, inserted: inserted,
                                   updated: updated, unchanged: unchanged,
                                   duplicates: feed.episodes.count - unique.count,
                                   writtenWithTranscripts: Array(withTranscripts.reversed()),
                                   arrivals: Array(arrivals.reversed()))
        }
    }

    /// The stored episodes of `show` that `episodes` may be, by identity.
    /// A feed read in part (`FeedDocumentLayout`) brings an episode or two:
    /// those are looked up by the (show, identity) index, rather than every
    /// episode of a show with hundreds being read for them.
    private func knownEpisodes(of show: ShowID, among episodes: [FeedEpisode]) throws
        -> [String: (id: EpisodeID, contentHash: Int64)] {
        let read = { (row: SQLiteRow) in (row.string(0), EpisodeID(rawValue: row.int64(1)), row.int64(2)) }
        let rows = if episodes.count <= 8 {
            try episodes.flatMap { episode in
                try connection.query("SELECT identity, id, content_hash FROM episodes WHERE show_id = ? AND identity = ?",
                                     [show, episode.identity.key], read)
            }
        } else {
            try connection.query("SELECT identity, id, content_hash FROM episodes WHERE show_id = ?", [show], read)
        }
        var known: [String: (id: EpisodeID, contentHash: Int64)] = [:]
        known.reserveCapacity(rows.count)
        for row in rows { known[row.0] = (row.1, row.2) }
        return known
    }

    /// Records a refresh that brought no feed to apply: 304 Not Modified, or a failure.
    public func recordRefresh(of show: ShowID, outcome: RefreshOutcome, at now: Date = Date()) throws {
        try connection.transaction {
            switch outcome {
            case .notModified(let etag, let lastModified):
                try connection.execute("""
                    UPDATE shows SET etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                        last_refreshed = ?, last_error_kind = NULL, last_error_message = NULL
                    WHERE id = ?
                    """, [etag, lastModified, now.databaseSeconds, show])
            case .failed(let failure):
                try connection.execute("UPDATE shows SET last_error_kind = ?, last_error_message = ? WHERE id = ?",
                                       [failure.kind.rawValue, failure.message, show])
            }
            guard connection.changes == 1 else { throw LibraryStoreError.unknownShow(show) }
        }
    }
}
