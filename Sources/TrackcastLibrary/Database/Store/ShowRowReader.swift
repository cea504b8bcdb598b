import Foundation

/// The SQL that reads whole shows, with their counts (kept by triggers, see
/// `LibrarySchema.version2`), and the reading of its
/// rows into `Show`. Apart from the store so the query-plan tests check this SQL.
enum ShowRowReader {
    static let select = """
        SELECT s.id, s.feed_url, s.title, s.link, s.description, s.author, s.language, s.image_url,
            s.new_feed_url, s.podcast_guid, s.show_type, s.explicit, s.locked, s.complete, s.subscribed,
            s.etag, s.last_modified, s.last_refreshed, s.last_error_kind, s.last_error_message,
            s.playback_speed, s.skip_intro, s.skip_outro, s.auto_download,
            s.unplayed_count, s.new_count, s.feed_head_length, s.feed_head_digest, s.feed_items,
            s.feed_end_length, s.feed_end_digest, s.feed_prologue_length, s.feed_prologue_digest
        FROM shows s
        """

    /// Every show, by title (case-insensitively; untitled ones by feed URL).
    static let list = "\(select) ORDER BY coalesce(s.title, s.feed_url) COLLATE NOCASE, s.id"

    /// `nil` only for a row whose feed URL does not parse, which the store never writes.
    static func read(_ row: SQLiteRow) -> Show? {
        guard let feedURL = row.url(1) else { return nil }
        let failure = row.optionalString(18).map {
            RefreshFailure(kind: .init(rawValue: $0), message: row.optionalString(19) ?? "")
        }
        return Show(
            id: ShowID(rawValue: row.int64(0)),
            feedURL: feedURL,
            title: row.optionalString(2),
            link: row.url(3),
            description: row.optionalString(4),
            author: row.optionalString(5),
            language: row.optionalString(6),
            imageURL: row.url(7),
            newFeedURL: row.url(8),
            podcastGUID: row.optionalString(9),
            showType: row.enumeration(10, as: Feed.ShowType.self),
            isExplicit: row.optionalBool(11),
            isLocked: row.optionalBool(12),
            isComplete: row.bool(13),
            subscribed: row.date(14),
            refresh: ShowRefreshState(etag: row.optionalString(15), lastModified: row.optionalString(16),
                                      lastRefreshed: row.optionalDate(17), lastFailure: failure,
                                      feedLayout: layout(row)),
            settings: ShowSettings(playbackSpeed: row.optionalDouble(20), skipIntro: row.double(21),
                                   skipOutro: row.double(22), autoDownload: row.bool(23)),
            unplayedCount: row.int(24),
            newCount: row.int(25))
    }

    private static func layout(_ row: SQLiteRow) -> FeedDocumentLayout? {
        guard let headLength = row.optionalInt(26), let headDigest = row.optionalInt64(27),
              let items = row.optionalData(28).flatMap(FeedDocumentLayout.items(fromBlob:)),
              let endLength = row.optionalInt(29), let endDigest = row.optionalInt64(30),
              let prologueLength = row.optionalInt(31), let prologueDigest = row.optionalInt64(32),
              (0..<FeedDocumentLayout.lengthLimit).contains(headLength),
              (0..<FeedDocumentLayout.lengthLimit).contains(endLength),
              (0...headLength).contains(prologueLength) else { return nil }
        return FeedDocumentLayout(headLength: headLength, headDigest: headDigest, prologueLength: prologueLength,
                                  prologueDigest: prologueDigest, items: items, endLength: endLength,
                                  endDigest: endDigest)
    }
}
