import Foundation

extension LibraryStore {
    /// Every show, by title (case-insensitively; untitled ones by feed URL).
    public func shows() throws -> [Show] {
        try connection.query(ShowRowReader.list, [], ShowRowReader.read).compactMap { $0 }
    }

    public func show(_ id: ShowID) throws -> Show? {
        try connection.queryFirst("\(ShowRowReader.select) WHERE s.id = ?", [id], ShowRowReader.read) ?? nil
    }

    public func show(feedURL: URL) throws -> Show? {
        try connection.queryFirst("\(ShowRowReader.select) WHERE s.feed_url = ?", [feedURL], ShowRowReader.read) ?? nil
    }

    /// The show with its channel-level persons and funding links.
    public func showDetail(_ id: ShowID) throws -> ShowDetail? {
        guard let show = try show(id) else { return nil }
        let persons = try connection.query("""
            SELECT name, role, group_name, href, image_url FROM persons WHERE show_id = ? ORDER BY position
            """, [id], Self.readPerson)
        let funding = try connection.query("SELECT url, title FROM funding WHERE show_id = ? ORDER BY position",
                                           [id], Self.readFunding).compactMap { $0 }
        return ShowDetail(show: show, persons: persons, funding: funding)
    }

    /// Removes the show and, through the schema's cascades, its episodes and
    /// everything hanging off them (media, chapters, downloads records, queue
    /// entries, resume positions), and its rows of the search index. Files on disk are the downloader's to delete.
    public func unsubscribe(_ id: ShowID) throws {
        try connection.transaction {
            try SearchIndexWriter(connection: connection).removeShow(id)
            try connection.execute("DELETE FROM shows WHERE id = ?", [id])
            guard connection.changes == 1 else { throw LibraryStoreError.unknownShow(id) }
            // The cascade leaves holes where the show's episodes were queued.
            try QueueOrder(connection: connection).renumber()
        }
    }

    public func settings(for id: ShowID) throws -> ShowSettings? {
        try connection.queryFirst("""
            SELECT playback_speed, skip_intro, skip_outro, auto_download FROM shows WHERE id = ?
            """, [id]) {
            ShowSettings(playbackSpeed: $0.optionalDouble(0), skipIntro: $0.double(1),
                         skipOutro: $0.double(2), autoDownload: $0.bool(3))
        }
    }

    public func setSettings(_ settings: ShowSettings, for id: ShowID) throws {
        try connection.execute("""
            UPDATE shows SET playback_speed = ?, skip_intro = ?, skip_outro = ?, auto_download = ? WHERE id = ?
            """, [settings.playbackSpeed, settings.skipIntro, settings.skipOutro, settings.autoDownload, id])
        guard connection.changes == 1 else { throw LibraryStoreError.unknownShow(id) }
    }

    static func readPerson(_ row: SQLiteRow) -> FeedPerson {
        FeedPerson(name: row.string(0), role: row.string(1), group: row.string(2),
                   href: row.url(3), imageURL: row.url(4))
    }

    static func readFunding(_ row: SQLiteRow) -> FeedFunding? {
        row.url(0).map { FeedFunding(url: $0, title: row.optionalString(1)) }
    }
}
