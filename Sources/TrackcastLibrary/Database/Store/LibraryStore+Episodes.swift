import Foundation

extension LibraryStore {
    /// One page of a show's episodes.
    public func episodes(of show: ShowID, filter: EpisodeFilter = .all, sort: EpisodeSort = .newestFirst,
                         limit: Int, offset: Int = 0) throws -> [EpisodeSummary] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query(EpisodeSummaryQuery.showEpisodes(filter: filter, sort: sort),
                                    [show, limit, offset]) { reader.read($0) }
    }

    /// New episodes across all shows, newest first.
    public func newEpisodes(limit: Int, offset: Int = 0) throws -> [EpisodeSummary] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query(EpisodeSummaryQuery.newEpisodes, [limit, offset]) { reader.read($0) }
    }

    /// Started and not finished ("continue listening"), most recently played first.
    public func inProgressEpisodes(limit: Int, offset: Int = 0) throws -> [EpisodeSummary] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query(EpisodeSummaryQuery.inProgress, [limit, offset]) { reader.read($0) }
    }

    /// Completely downloaded episodes, most recently finished first.
    public func downloadedEpisodes(limit: Int, offset: Int = 0) throws -> [EpisodeSummary] {
        var reader = EpisodeSummaryQuery.Reader()
        return try connection.query(EpisodeSummaryQuery.downloaded, [limit, offset]) { reader.read($0) }
    }

    public func episodeSummary(_ id: EpisodeID) throws -> EpisodeSummary? {
        try connection.queryFirst("\(EpisodeSummaryQuery.fromEpisodes) WHERE e.id = ?", [id], EpisodeSummaryQuery.read)
    }

    /// The episode with its enclosures, chapters, transcripts, persons and funding links.
    public func episode(_ id: EpisodeID) throws -> EpisodeDetail? {
        try connection.queryFirst("""
            SELECT \(EpisodeSummaryQuery.columns),
                e.guid, e.subtitle, e.author, e.link, e.description, e.content_html, e.season, e.season_name,
                e.number, e.episode_type, e.explicit, e.chapters_url, e.chapters_type, e.first_seen
            FROM episodes e
            \(EpisodeSummaryQuery.showAndMedia)
            \(EpisodeSummaryQuery.resumePosition)
            \(EpisodeSummaryQuery.download)
            WHERE e.id = ?
            """, [id]) { row in
            (summary: EpisodeSummaryQuery.read(row), guid: row.optionalString(16), subtitle: row.optionalString(17),
             author: row.optionalString(18), link: row.url(19), description: row.optionalString(20),
             contentHTML: row.optionalString(21), season: row.optionalInt(22), seasonName: row.optionalString(23),
             number: row.optionalInt(24), episodeType: row.enumeration(25, as: FeedEpisode.EpisodeType.self),
             isExplicit: row.optionalBool(26), chaptersURL: row.url(27), chaptersType: row.optionalString(28),
             firstSeen: row.date(29))
        }.map { fields in
            EpisodeDetail(
                summary: fields.summary, guid: fields.guid, subtitle: fields.subtitle, author: fields.author,
                link: fields.link, description: fields.description, contentHTML: fields.contentHTML,
                season: fields.season, seasonName: fields.seasonName, number: fields.number,
                episodeType: fields.episodeType, isExplicit: fields.isExplicit, chaptersURL: fields.chaptersURL,
                chaptersType: fields.chaptersType, firstSeen: fields.firstSeen,
                enclosures: try connection.query("""
                    SELECT url, mime_type, length FROM enclosures WHERE episode_id = ? ORDER BY position
                    """, [id]) { row in
                    row.url(0).map { FeedEnclosure(url: $0, mimeType: row.optionalString(1), length: row.optionalInt64(2)) }
                }.compactMap { $0 },
                chapters: try connection.query("""
                    SELECT start, title, url, image_url FROM chapters WHERE episode_id = ? ORDER BY position
                    """, [id]) { row in
                    FeedChapter(start: row.double(0), title: row.string(1), url: row.url(2), imageURL: row.url(3))
                },
                transcripts: try connection.query("""
                    SELECT url, type, language, rel FROM transcripts WHERE episode_id = ? ORDER BY position
                    """, [id]) { row in
                    row.url(0).map { FeedTranscript(url: $0, type: row.optionalString(1),
                                                    language: row.optionalString(2), rel: row.optionalString(3)) }
                }.compactMap { $0 },
                persons: try connection.query("""
                    SELECT name, role, group_name, href, image_url FROM persons WHERE episode_id = ? ORDER BY position
                    """, [id], Self.readPerson),
                funding: try connection.query("""
                    SELECT url, title FROM funding WHERE episode_id = ? ORDER BY position
                    """, [id], Self.readFunding).compactMap { $0 })
        }
    }

    /// Marks episodes played or unplayed. Played also clears the resume
    /// position (the next play starts at the beginning) and the new flag.
    public func setPlayed(_ episodes: [EpisodeID], played: Bool) throws {
        try connection.transaction {
            for id in episodes {
                if played {
                    try connection.execute("UPDATE episodes SET played = 1, is_new = 0 WHERE id = ?", [id])
                    try connection.execute("DELETE FROM resume_positions WHERE episode_id = ?", [id])
                } else {
                    try connection.execute("UPDATE episodes SET played = 0 WHERE id = ?", [id])
                }
            }
        }
    }

    /// Takes episodes out of "new" without playing them (the user has seen them).
    public func clearNew(_ episodes: [EpisodeID]) throws {
        try connection.transaction {
            for id in episodes {
                try connection.execute("UPDATE episodes SET is_new = 0 WHERE id = ?", [id])
            }
        }
    }
}
