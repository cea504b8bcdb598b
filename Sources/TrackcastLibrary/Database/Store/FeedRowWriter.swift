import Foundation

/// Writes the feed model's shows, episodes and their children as rows.
/// Callers run it inside a transaction.
struct FeedRowWriter {
    let connection: SQLiteConnection

    /// Persons and funding belong to a show or to one of its episodes.
    enum Owner {
        case show(ShowID)
        case episode(EpisodeID)

        var columns: [any SQLiteBindable] {
            switch self {
            case .show(let id): return [id, SQLiteValue.null]
            case .episode(let id): return [SQLiteValue.null, id]
            }
        }
    }

    func insertShow(feedURL: URL, subscribed: Date) throws -> ShowID {
        try connection.execute("INSERT INTO shows (feed_url, subscribed) VALUES (?, ?)",
                               [feedURL, subscribed.databaseSeconds])
        return ShowID(rawValue: connection.lastInsertedRowID)
    }

    /// Overwrites the show's feed fields and records a successful refresh.
    func updateShow(_ id: ShowID, from feed: Feed, etag: String?, lastModified: String?, layout: FeedDocumentLayout?,
                    refreshed: Date) throws {
        try connection.execute("""
            UPDATE shows SET title = ?, link = ?, description = ?, author = ?, language = ?,
                image_url = ?, new_feed_url = ?, podcast_guid = ?, show_type = ?, explicit = ?,
                locked = ?, complete = ?, etag = ?, last_modified = ?, feed_head_length = ?, feed_head_digest = ?,
                feed_prologue_length = ?, feed_prologue_digest = ?, feed_items = ?, feed_end_length = ?,
                feed_end_digest = ?, last_refreshed = ?,
                last_error_kind = NULL, last_error_message = NULL
            WHERE id = ?
            """, [
                feed.title, feed.link, feed.description, feed.author, feed.language,
                feed.imageURL, feed.newFeedURL, feed.podcastGUID, feed.showType?.rawValue, feed.isExplicit,
                feed.isLocked, feed.isComplete, etag, lastModified, layout?.headLength, layout?.headDigest,
                layout?.prologueLength, layout?.prologueDigest, layout?.itemsBlob, layout?.endLength,
                layout?.endDigest, refreshed.databaseSeconds,
                id,
            ])
        try connection.execute("DELETE FROM persons WHERE show_id = ?", [id])
        try connection.execute("DELETE FROM funding WHERE show_id = ?", [id])
        try insertPersons(feed.persons, of: .show(id))
        try insertFunding(feed.funding, of: .show(id))
    }

    @discardableResult
    func insertEpisode(_ episode: FeedEpisode, identity: String, contentHash: Int64, show: ShowID,
                       isNew: Bool, firstSeen: Date) throws -> EpisodeID {
        try connection.execute("""
            INSERT INTO episodes (show_id, identity, is_new, first_seen, content_hash,
                guid, title, subtitle, author, published, duration, link, description, content_html,
                image_url, season, season_name, number, episode_type, explicit, chapters_url, chapters_type)
            VALUES (?, ?, ?, ?, ?,  ?, ?, ?, ?, ?, ?, ?, ?, ?,  ?, ?, ?, ?, ?, ?, ?, ?)
            """, [show, identity, isNew, firstSeen.databaseSeconds, contentHash] + Self.fields(of: episode))
        let id = EpisodeID(rawValue: connection.lastInsertedRowID)
        try insertChildren(of: episode, id: id)
        return id
    }

    /// Rewrites a known episode's feed fields and children; what the user did
    /// with it (played, new, position, download, queue) stays.
    func updateEpisode(_ id: EpisodeID, to episode: FeedEpisode, contentHash: Int64) throws {
        try connection.execute("""
            UPDATE episodes SET content_hash = ?,
                guid = ?, title = ?, subtitle = ?, author = ?, published = ?, duration = ?, link = ?,
                description = ?, content_html = ?, image_url = ?, season = ?, season_name = ?, number = ?,
                episode_type = ?, explicit = ?, chapters_url = ?, chapters_type = ?
            WHERE id = ?
            """, [contentHash] + Self.fields(of: episode) + [id])
        // Table names come from this list, never from input.
        for table in ["enclosures", "chapters", "transcripts", "persons", "funding"] {
            try connection.execute("DELETE FROM \(table) WHERE episode_id = ?", [id])
        }
        try insertChildren(of: episode, id: id)
    }

    /// In the column order of the INSERT and UPDATE above.
    private static func fields(of episode: FeedEpisode) -> [any SQLiteBindable] {
        [
            episode.guid, episode.title, episode.subtitle, episode.author, episode.published?.databaseSeconds,
            episode.duration, episode.link, episode.description, episode.contentHTML, episode.imageURL,
            episode.season, episode.seasonName, episode.number, episode.episodeType?.rawValue,
            episode.isExplicit, episode.chaptersURL, episode.chaptersType,
        ]
    }

    private func insertChildren(of episode: FeedEpisode, id: EpisodeID) throws {
        for (position, enclosure) in episode.enclosures.enumerated() {
            try connection.execute("""
                INSERT INTO enclosures (episode_id, position, url, mime_type, length) VALUES (?, ?, ?, ?, ?)
                """, [id, position, enclosure.url, enclosure.mimeType, enclosure.length])
        }
        for (position, chapter) in episode.chapters.enumerated() {
            try connection.execute("""
                INSERT INTO chapters (episode_id, position, start, title, url, image_url) VALUES (?, ?, ?, ?, ?, ?)
                """, [id, position, chapter.start, chapter.title, chapter.url, chapter.imageURL])
        }
        for (position, transcript) in episode.transcripts.enumerated() {
            try connection.execute("""
                INSERT INTO transcripts (episode_id, position, url, type, language, rel) VALUES (?, ?, ?, ?, ?, ?)
                """, [id, position, transcript.url, transcript.type, transcript.language, transcript.rel])
        }
        try insertPersons(episode.persons, of: .episode(id))
        try insertFunding(episode.funding, of: .episode(id))
    }

    private func insertPersons(_ persons: [FeedPerson], of owner: Owner) throws {
        for (position, person) in persons.enumerated() {
            try connection.execute("""
                INSERT INTO persons (show_id, episode_id, position, name, role, group_name, href, image_url)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, owner.columns + [position, person.name, person.role, person.group, person.href, person.imageURL])
        }
    }

    private func insertFunding(_ funding: [FeedFunding], of owner: Owner) throws {
        for (position, link) in funding.enumerated() {
            try connection.execute("""
                INSERT INTO funding (show_id, episode_id, position, url, title) VALUES (?, ?, ?, ?, ?)
                """, owner.columns + [position, link.url, link.title])
        }
    }
}
