/// The SQL shared by every episode list, and the reading of its rows into
/// `EpisodeSummary`. Lists add their own FROM root, WHERE and ORDER BY; the
/// fragments are constants, so the statements still bind every value.
enum EpisodeSummaryQuery {
    static let columns = """
        e.id, e.show_id, s.title, e.title, e.published, e.duration, e.image_url, s.image_url,
        e.played, e.is_new, enc.url, enc.mime_type, r.position, r.duration, r.updated, d.state
        """

    /// The show and the first enclosure of `e`.
    static let showAndMedia = """
        JOIN shows s ON s.id = e.show_id
        LEFT JOIN enclosures enc ON enc.episode_id = e.id AND enc.position = 0
        """

    static let resumePosition = "LEFT JOIN resume_positions r ON r.episode_id = e.id"
    static let download = "LEFT JOIN downloads d ON d.episode_id = e.id"

    /// Rooted at episodes: `SELECT … FROM episodes e` with every join.
    static let fromEpisodes = """
        SELECT \(columns) FROM episodes e
        \(showAndMedia)
        \(resumePosition)
        \(download)
        """

    static func read(_ row: SQLiteRow) -> EpisodeSummary {
        EpisodeSummary(
            id: EpisodeID(rawValue: row.int64(0)),
            showID: ShowID(rawValue: row.int64(1)),
            showTitle: row.optionalString(2),
            title: row.optionalString(3),
            published: row.optionalDate(4),
            duration: row.optionalDouble(5),
            imageURL: row.url(6),
            showImageURL: row.url(7),
            isPlayed: row.bool(8),
            isNew: row.bool(9),
            mediaURL: row.url(10),
            mediaType: row.optionalString(11),
            resumePosition: row.isNull(12) ? nil : ResumePosition(
                position: row.double(12), duration: row.optionalDouble(13),
                updated: .init(timeIntervalSince1970: row.double(14))),
            downloadState: row.enumeration(15, as: DownloadState.self))
    }
}
