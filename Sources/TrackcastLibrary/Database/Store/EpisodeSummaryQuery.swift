import Foundation

/// The SQL of every episode list, and the reading of its rows into
/// `EpisodeSummary`. The lists share columns and joins and differ in their
/// root table, WHERE and ORDER BY; the fragments are constants, so every
/// value is still bound. Kept here, apart from the store, so the query-plan
/// tests check exactly the SQL the store runs.
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

    /// A show's episodes; binds show id, limit, offset.
    static func showEpisodes(filter: EpisodeFilter, sort: EpisodeSort) -> String {
        let condition = switch filter {
        case .all: ""
        case .unplayed: "AND e.played = 0"
        case .inProgress: "AND e.played = 0 AND r.episode_id IS NOT NULL"
        case .downloaded: "AND d.state = 'complete'"
        }
        let order = switch sort {
        case .newestFirst: "e.published DESC, e.id DESC"
        case .oldestFirst: "e.published ASC, e.id ASC"
        }
        return """
            \(fromEpisodes)
            WHERE e.show_id = ? \(condition)
            ORDER BY \(order) LIMIT ? OFFSET ?
            """
    }

    /// Binds limit, offset.
    static let newEpisodes = """
        \(fromEpisodes)
        WHERE e.is_new = 1
        ORDER BY e.published DESC, e.id DESC LIMIT ? OFFSET ?
        """

    /// Binds limit, offset.
    static let inProgress = """
        SELECT \(columns) FROM resume_positions r
        JOIN episodes e ON e.id = r.episode_id
        \(showAndMedia)
        \(download)
        WHERE r.episode_id IS NOT NULL AND e.played = 0
        ORDER BY r.updated DESC LIMIT ? OFFSET ?
        """

    /// Binds limit, offset.
    static let downloaded = """
        SELECT \(columns) FROM downloads d
        JOIN episodes e ON e.id = d.episode_id
        \(showAndMedia)
        \(resumePosition)
        WHERE d.state = 'complete'
        ORDER BY d.updated DESC, d.episode_id DESC LIMIT ? OFFSET ?
        """

    static let queue = """
        SELECT \(columns) FROM queue q
        JOIN episodes e ON e.id = q.episode_id
        \(showAndMedia)
        \(resumePosition)
        \(download)
        ORDER BY q.position
        """

    /// One row, on its own.
    static func read(_ row: SQLiteRow) -> EpisodeSummary {
        var reader = Reader()
        return reader.read(row)
    }

    /// Reads a query's rows. A list reads hundreds of rows of one show or a
    /// few, and each row repeats its show's title and artwork address: those
    /// are made once per query and shared, not once per row (a `URL` is a
    /// few hundred bytes, and a long show page holds ten thousand rows).
    struct Reader {
        private var titles: [String: String] = [:]
        private var artwork: [String: URL] = [:]

        mutating func read(_ row: SQLiteRow) -> EpisodeSummary {
            EpisodeSummary(
                id: EpisodeID(rawValue: row.int64(0)),
                showID: ShowID(rawValue: row.int64(1)),
                showTitle: sharedTitle(row.optionalString(2)),
                title: row.optionalString(3),
                published: row.optionalDate(4),
                duration: row.optionalDouble(5),
                imageURL: sharedArtwork(row.optionalString(6)),
                showImageURL: sharedArtwork(row.optionalString(7)),
                isPlayed: row.bool(8),
                isNew: row.bool(9),
                mediaURL: row.url(10),
                mediaType: row.optionalString(11),
                resumePosition: row.isNull(12) ? nil : ResumePosition(
                    position: row.double(12), duration: row.optionalDouble(13),
                    updated: .init(timeIntervalSince1970: row.double(14))),
                downloadState: row.enumeration(15, as: DownloadState.self))
        }

        private mutating func sharedTitle(_ title: String?) -> String? {
            guard let title else { return nil }
            if let known = titles[title] { return known }
            titles[title] = title
            return title
        }

        private mutating func sharedArtwork(_ address: String?) -> URL? {
            guard let address else { return nil }
            if let known = artwork[address] { return known }
            let url = URL(string: address)
            artwork[address] = url
            return url
        }
    }
}
